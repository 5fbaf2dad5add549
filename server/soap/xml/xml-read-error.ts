/**
 * The one error the XML reader throws. Every reason is an XmlException-class failure in ASMX terms,
 * so the SOAP layer maps all of them to HTTP 400 with an empty body
 * (docs: asmx-compatibility.md §1.2 point 5, §1.3 "Status").
 *
 * Messages are fixed phrases: they never quote the input, because the input may be a megabyte of
 * attacker-chosen text (a 1 MB tag name, §2 row 8) and errors end up in logs.
 */
export type XmlReadReason =
  'doctype' | 'malformed' | 'invalid-char' | 'undeclared-entity' | 'limit' | 'encoding' | 'undeclared-prefix';

export class XmlReadError extends Error {
  override readonly name = 'XmlReadError';
  readonly reason: XmlReadReason;
  /** 1-based position of the offending markup, when the reader knows it (for logs only). */
  readonly line: number | undefined;
  readonly col: number | undefined;

  constructor(reason: XmlReadReason, message: string, position?: { line: number; col: number }) {
    super(position ? `${message} (${position.line}, ${position.col})` : message);
    this.reason = reason;
    this.line = position?.line;
    this.col = position?.col;
  }
}

/** 1-based line and column of `offset` in `text`; O(offset), so only for error paths. */
export function positionAt(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  for (let nl = text.indexOf('\n'); nl !== -1 && nl < offset; nl = text.indexOf('\n', nl + 1)) {
    line++;
    lineStart = nl + 1;
  }
  return { line, col: offset - lineStart + 1 };
}
