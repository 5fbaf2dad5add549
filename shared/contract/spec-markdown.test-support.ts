/**
 * Test support (not shipped): reads the contract out of spec/transaction-service.md, so that
 * contract.test.ts compares the table with the spec itself rather than with a copy of it.
 *
 * It understands the spec's three ways of listing fields: tables ("Field | Type | Required" and
 * "Type | Field | Type | Required"), and prose ("Required: TestRequest (boolean), …",
 * "MerchantID (long, required); TransactionKey, Name (string, optional).", "UserName, Email:
 * optional strings."). Anything it cannot read throws, so a change of the spec's shape fails the
 * test loudly instead of being skipped.
 */
import { isScalarType } from './model.ts';

export type SpecType =
  | { readonly kind: 'scalar' | 'complex'; readonly type: string }
  | { readonly kind: 'list'; readonly item: string; readonly itemElement: string };

export interface SpecField {
  readonly name: string;
  readonly type: SpecType;
  /** undefined: the spec does not say. */
  readonly required: boolean | undefined;
  readonly nillable: boolean;
}

export interface SpecComplexType {
  readonly name: string;
  base?: string;
  readonly fields: SpecField[];
  /** The heading's parenthesis for a one-type section, e.g. "input of ProcessTransaction". */
  readonly role: string | undefined;
}

export interface SpecOperation {
  readonly name: string;
  readonly params: SpecField[];
  /** A type, or the result cell's text when it names none ("OneTimePasswordForPhone and …"). */
  readonly result: SpecType | string;
  readonly rootElement: string | null;
}

export interface SpecContract {
  readonly types: SpecComplexType[];
  readonly operations: SpecOperation[];
  /** Operation names of the "What the service does" group table. */
  readonly groupedOperations: string[];
}

/** The level-`depth` sections of `markdown`, by heading text. */
function sections(markdown: string, depth: number): Map<string, string> {
  const marker = `${'#'.repeat(depth)} `;
  const out = new Map<string, string>();
  let heading: string | undefined;
  let body: string[] = [];
  for (const line of markdown.split('\n')) {
    if (line.startsWith(marker)) {
      if (heading !== undefined) out.set(heading, body.join('\n'));
      heading = line.slice(marker.length).trim();
      body = [];
    } else if (/^#{1,6} /.test(line) && line.indexOf(' ') <= depth) {
      // A higher-level heading ends the current section.
      if (heading !== undefined) out.set(heading, body.join('\n'));
      heading = undefined;
      body = [];
    } else body.push(line);
  }
  if (heading !== undefined) out.set(heading, body.join('\n'));
  return out;
}

function section(markdown: string, depth: number, heading: string): string {
  const body = sections(markdown, depth).get(heading);
  if (body === undefined) throw new Error(`The spec has no section "${heading}"`);
  return body;
}

/** Tables (arrays of rows of cells, header first, separator dropped) and paragraphs of a body. */
function blocks(body: string): { tables: string[][][]; paragraphs: string[] } {
  const tables: string[][][] = [];
  const paragraphs: string[] = [];
  let table: string[][] | null = null;
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length > 0) paragraphs.push(paragraph.join(' '));
    paragraph = [];
    table = null;
  };
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('|')) {
      if (table === null) {
        flush();
        table = [];
        tables.push(table);
      }
      const cells = line
        .slice(1, line.endsWith('|') ? -1 : undefined)
        .split('|')
        .map((c) => c.trim());
      if (!cells.every((c) => /^:?-+:?$/.test(c))) table.push(cells);
    } else if (line === '') flush();
    else {
      if (table !== null) table = null;
      paragraph.push(line);
    }
  }
  flush();
  return { tables, paragraphs };
}

/** Splits at `sep` outside parentheses. */
function splitOutside(text: string, sep: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of text) {
    if (c === '(') depth++;
    if (c === ')') depth--;
    if (c === sep && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += c;
  }
  parts.push(current.trim());
  return parts.filter((p) => p !== '');
}

/** "list of InvoiceDetails (zero or more)", "dateTime, nillable", "long", "Request". */
function parseType(text: string): SpecType {
  const list = /^list of (\w+)/.exec(text);
  if (list?.[1] !== undefined) {
    const item = list[1];
    return { kind: 'list', item, itemElement: /element name (\w+)/.exec(text)?.[1] ?? item };
  }
  const name = /^\w+/.exec(text)?.[0];
  if (name === undefined) throw new Error(`Unreadable type "${text}"`);
  return { kind: isScalarType(name) ? 'scalar' : 'complex', type: name };
}

interface Annotation {
  type?: SpecType;
  required?: boolean;
  nillable?: boolean;
}

const LABEL_WORDS = new Set(['all', 'optional', 'required', 'string', 'strings']);

/** "boolean", "long, required", "all string", "optional strings", "Required". */
function parseAnnotation(text: string): Annotation {
  const words = (splitOutside(text, ';')[0] ?? '').split(/[^A-Za-z]+/).filter(Boolean);
  const scalar = words.find((w) => isScalarType(w) || w === 'strings');
  const lower = words.map((w) => w.toLowerCase());
  const annotation: Annotation = {};
  if (scalar !== undefined)
    annotation.type = { kind: 'scalar', type: scalar === 'strings' ? 'string' : scalar };
  if (lower.includes('required')) annotation.required = true;
  if (lower.includes('optional')) annotation.required = false;
  if (lower.includes('nillable')) annotation.nillable = true;
  return annotation;
}

function isLabel(text: string): boolean {
  const words = text.split(/[^A-Za-z]+/).filter(Boolean);
  return words.length > 0 && words.every((w) => LABEL_WORDS.has(w.toLowerCase()) || isScalarType(w));
}

/** Reads one prose paragraph of fields into `types` (keyed by name). */
function readProse(paragraph: string, names: string[], types: Map<string, SpecComplexType>): void {
  let current = names.length === 1 ? names[0] : undefined;
  for (const sentence of splitOutside(paragraph, '.')) {
    for (const clause of splitOutside(sentence, ';')) {
      let list = clause;
      let defaults: Annotation = {};
      const colon = splitOutside(clause, ':');
      if (colon.length === 2) {
        const [left = '', right = ''] = colon;
        if (names.includes(left)) [current, list] = [left, right];
        else if (isLabel(left)) [defaults, list] = [parseAnnotation(left), right];
        else if (isLabel(right)) [defaults, list] = [parseAnnotation(right), left];
        else throw new Error(`Unreadable clause "${clause}"`);
      }
      const target = current === undefined ? undefined : types.get(current);
      if (target === undefined) throw new Error(`No type for clause "${clause}"`);
      let pending: string[] = [];
      const emit = (annotation: Annotation) => {
        const type = annotation.type ?? defaults.type;
        if (type === undefined) throw new Error(`No type for ${pending.join(', ')} in "${clause}"`);
        const required = annotation.required ?? defaults.required;
        for (const name of pending)
          target.fields.push({ name, type, required, nillable: !!annotation.nillable });
        pending = [];
      };
      for (const item of splitOutside(list, ',')) {
        const m = /^(\w+)\s*(?:\((.*)\))?$/.exec(item);
        if (m?.[1] === undefined) throw new Error(`Unreadable field "${item}" in "${clause}"`);
        pending.push(m[1]);
        if (m[2] !== undefined) emit(parseAnnotation(m[2]));
      }
      if (pending.length > 0) emit({});
    }
  }
}

/** Reads one field table into `types`. */
function readTable(rows: string[][], names: string[], types: Map<string, SpecComplexType>): void {
  const [header = [], ...body] = rows;
  const typed = header[0] === 'Type' && header[1] === 'Field';
  if (!typed && !(header[0] === 'Field' && header[1] === 'Type'))
    throw new Error(`Unknown table ${header.join('|')}`);
  for (const row of body) {
    const [typeName, fieldCell = '', typeCell = '', requiredCell = ''] = typed ? row : [names[0], ...row];
    const target = typeName === undefined ? undefined : types.get(typeName);
    if (target === undefined || (!typed && names.length !== 1))
      throw new Error(`No type for row ${row.join('|')}`);
    let fieldList = fieldCell;
    const extension = /^extends (\w+); adds (.*)$/.exec(fieldCell);
    if (extension?.[1] !== undefined) [target.base, fieldList] = [extension[1], extension[2] ?? ''];
    const required = /^yes\b/.test(requiredCell) ? true : /^no\b/.test(requiredCell) ? false : undefined;
    if (required === undefined) throw new Error(`Unreadable Required cell "${requiredCell}"`);
    for (const name of fieldList.split(',').map((n) => n.trim())) {
      if (!/^\w+$/.test(name)) throw new Error(`Unreadable field "${name}"`);
      target.fields.push({
        name,
        type: parseType(typeCell),
        required,
        nillable: /\bnillable\b/.test(typeCell),
      });
    }
  }
}

function readTypes(markdown: string): SpecComplexType[] {
  const types = new Map<string, SpecComplexType>();
  for (const [heading, body] of sections(section(markdown, 2, 'Resources and their fields'), 3)) {
    const m = /^([\w /]+?)\s*(?:\((.*)\))?$/.exec(heading);
    const names = (m?.[1] ?? '').split(' / ').map((n) => n.trim());
    // "Gaps in the field definitions" and other prose headings name no type.
    if (!names.every((n) => /^[A-Z][A-Za-z0-9]*$/.test(n))) continue;
    const role = names.length === 1 ? m?.[2] : undefined;
    for (const name of names) types.set(name, { name, fields: [], role });
    const { tables, paragraphs } = blocks(body);
    for (const table of tables) readTable(table, names, types);
    for (const paragraph of paragraphs) readProse(paragraph, names, types);
  }
  return [...types.values()];
}

/** "customerID (long, required)", "request (Request, optional)", "token (string)". */
function readParam(text: string): SpecField {
  const m = /^(\w+) \(([^,)]+)(?:, (required|optional))?\)$/.exec(text);
  if (m?.[1] === undefined || m[2] === undefined) throw new Error(`Unreadable parameter "${text}"`);
  const required = m[3] === undefined ? undefined : m[3] === 'required';
  return { name: m[1], type: parseType(m[2]), required, nillable: false };
}

function readOperations(markdown: string): SpecOperation[] {
  const body = section(section(markdown, 2, 'Endpoints'), 3, 'Operations');
  const [table] = blocks(body).tables;
  const [header = [], ...rows] = table ?? [];
  const column = (prefix: string) => {
    const i = header.findIndex((h) => h.startsWith(prefix));
    if (i < 0) throw new Error(`The operations table has no "${prefix}" column`);
    return i;
  };
  const [op, params, result, root] = [
    column('Operation'),
    column('Parameters'),
    column('Result'),
    column('Root element'),
  ];
  return rows.map((row) => {
    const name = /^\w+/.exec(row[op] ?? '')?.[0];
    if (name === undefined) throw new Error(`Unreadable operation row ${row.join('|')}`);
    const resultText = row[result] ?? '';
    const list = /^zero or more (\w+)$/.exec(resultText)?.[1];
    const rootText = (row[root] ?? '').replace(/`/g, '');
    return {
      name,
      params: splitOutside(row[params] ?? '', ',').map(readParam),
      result: list
        ? { kind: 'list', item: list, itemElement: list }
        : /^\w+$/.test(resultText)
          ? parseType(resultText)
          : resultText,
      rootElement: /^not among/.test(rootText) ? null : rootText,
    };
  });
}

function readGroups(markdown: string): string[] {
  const [table] = blocks(section(markdown, 2, 'What the service does')).tables;
  return (table ?? []).slice(1).flatMap((row) => (row[1] ?? '').split(',').map((n) => n.trim()));
}

export function parseSpec(markdown: string): SpecContract {
  const text = markdown.replace(/\r\n/g, '\n');
  return { types: readTypes(text), operations: readOperations(text), groupedOperations: readGroups(text) };
}
