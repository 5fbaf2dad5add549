/**
 * Recording benchmark results in bench/README.md: each benchmark owns one `## ` section, which a
 * run replaces (or appends), and writes its tables laid out as Prettier lays them out, so a
 * recorded README passes `npm run lint` as it is.
 */
import fs from 'node:fs';

/** A Markdown table padded as the formatter pads one. */
export function markdownTable(header: string[], rightAligned: boolean[], body: string[][]): string {
  const widths = header.map((h, i) => Math.max(3, h.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => (rightAligned[i] ? c.padStart(widths[i]!) : c.padEnd(widths[i]!))).join(' | ')} |`;
  const rule = widths.map((w, i) => (rightAligned[i] ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w)));
  return [line(header), line(rule), ...body.map(line)].join('\n');
}

/** Replaces the section that starts with `heading` (up to the next `## `) with `section`, or appends it. */
export function recordSection(readme: string, heading: string, section: string): void {
  const text = fs.readFileSync(readme, 'utf8');
  const start = text.indexOf(heading);
  let next: string;
  if (start < 0) {
    next = `${text.trimEnd()}\n\n${section}`;
  } else {
    const after = text.indexOf('\n## ', start + heading.length);
    next = text.slice(0, start) + section.trimEnd() + '\n' + (after < 0 ? '' : `\n${text.slice(after + 1)}`);
  }
  fs.writeFileSync(readme, `${next.replace(/\n{3,}/g, '\n\n').trimEnd()}\n`);
}
