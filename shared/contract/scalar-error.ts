/**
 * Errors of scalar conversion, carrying the exact .NET message ASMX puts in its fault string
 * (asmx-compatibility.md §1.3 "Verbatim resource strings", §1.4, §1.5).
 */
import { callerText } from './caller-text.ts';
import type { ScalarType } from './model.ts';

/** `format`: a FormatException in .NET; `overflow`: an OverflowException (value out of range). */
export type ScalarErrorKind = 'format' | 'overflow';

/** A value the XML reader (XmlConvert) would refuse; the codec wraps it in a soap:Client fault. */
export class ScalarFormatError extends Error {
  override readonly name = 'ScalarFormatError';
  readonly type: ScalarType;
  readonly value: string;
  readonly kind: ScalarErrorKind;

  constructor(type: ScalarType, value: string, kind: ScalarErrorKind, message: string) {
    super(message);
    this.type = type;
    this.value = value;
    this.kind = kind;
  }
}

/** .NET type names used in ScalarFormatter's "Cannot convert {0} to {1}." (WebChangeTypeFailed). */
export const NET_TYPE_NAMES: Readonly<Record<ScalarType, string>> = {
  string: 'System.String',
  long: 'System.Int64',
  int: 'System.Int32',
  decimal: 'System.Decimal',
  boolean: 'System.Boolean',
  dateTime: 'System.DateTime',
};

/**
 * An HTTP GET/POST parameter that Convert.ChangeType refused. ASMX throws
 * `ArgumentException("Cannot convert {v} to {System.T}.", "type", inner)`; `innerMessage` is the
 * inner FormatException/OverflowException message, which its fault string appends after ` ---> `.
 */
export class ChangeTypeError extends Error {
  override readonly name = 'ChangeTypeError';
  readonly type: ScalarType;
  readonly value: string;
  readonly innerMessage: string;

  constructor(type: ScalarType, value: string, innerMessage: string) {
    super(`Cannot convert ${callerText(value)} to ${NET_TYPE_NAMES[type]}.`);
    this.type = type;
    this.value = value;
    this.innerMessage = innerMessage;
  }
}

export const MESSAGES = {
  badFormat: 'Input string was not in a correct format.',
  int32Overflow: 'Value was either too large or too small for an Int32.',
  int64Overflow: 'Value was either too large or too small for an Int64.',
  decimalOverflow: 'Value was either too large or too small for a Decimal.',
  badBoolean: 'String was not recognized as a valid Boolean.',
  badDateTime: 'String was not recognized as a valid DateTime.',
} as const;
