/**
 * Test support (not shipped): reads docs/transaction-service.md, Payframe's reference of the
 * Transaction Service interface, so that contract.test.ts compares the contract table with that
 * page rather than with a copy of itself.
 *
 * The page is laid out to be read: "## Operations" holds three tables (areas, operations,
 * parameters), and "## Types" one "### Name" section per complex type, each with an optional
 * "Used as:" line, an optional "Extends:" line and one field table. Anything else in a table, a
 * heading or those lines throws, so a page whose shape changes fails the test loudly instead of
 * being skipped.
 */
import { isScalarType } from '../../../shared/contract/model.ts';

export type DocType =
  | { readonly kind: 'scalar' | 'complex'; readonly type: string }
  | { readonly kind: 'list'; readonly item: string; readonly itemElement: string };

export interface DocField {
  readonly name: string;
  readonly type: DocType;
  readonly minOccurs: 0 | 1;
  readonly nillable: boolean;
}

export type DocRoleKind = 'input' | 'result' | 'list item';

export interface DocRole {
  readonly kind: DocRoleKind;
  readonly operations: readonly string[];
}

export interface DocComplexType {
  readonly name: string;
  readonly base: string | undefined;
  readonly fields: readonly DocField[];
  /** The "Used as:" line: the operations that take or return the type directly. */
  readonly roles: readonly DocRole[];
}

export interface DocOperation {
  readonly name: string;
  readonly params: readonly DocField[];
  readonly result: DocType;
  /** Root element of the HTTP GET/POST answer; null for a SOAP-only operation. */
  readonly rootElement: string | null;
}

export interface InterfaceDoc {
  readonly types: readonly DocComplexType[];
  readonly operations: readonly DocOperation[];
  /** Operation names of the areas table. */
  readonly areaOperations: readonly string[];
}

const SOAP_ONLY = 'none: SOAP only';
const NAME = /^[A-Za-z_]\w*$/;

/** The level-`depth` sections of `markdown` by heading; a higher-level heading ends a section. */
function sections(markdown: string, depth: number): Map<string, string> {
  const out = new Map<string, string>();
  let heading: string | undefined;
  let body: string[] = [];
  const close = () => {
    if (heading === undefined) return;
    if (out.has(heading)) throw new Error(`Two sections are headed "${heading}"`);
    out.set(heading, body.join('\n'));
  };
  for (const line of markdown.split('\n')) {
    const level = /^(#{1,6}) /.exec(line)?.[1]?.length;
    if (level !== undefined && level <= depth) {
      close();
      heading = level === depth ? line.slice(depth + 1).trim() : undefined;
      body = [];
    } else body.push(line);
  }
  close();
  return out;
}

function section(markdown: string, depth: number, heading: string): string {
  const body = sections(markdown, depth).get(heading);
  if (body === undefined) throw new Error(`docs/transaction-service.md has no section "${heading}"`);
  return body;
}

interface Table {
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** The tables (header, then rows; the separator row dropped) and paragraphs of a section body. */
function blocks(body: string): { tables: Table[]; paragraphs: string[] } {
  const tables: Table[] = [];
  const paragraphs: string[] = [];
  let table: string[][] | null = null;
  let paragraph: string[] = [];
  const flush = () => {
    if (table !== null) {
      const [header = [], ...rows] = table;
      tables.push({ header, rows });
    }
    if (paragraph.length > 0) paragraphs.push(paragraph.join(' '));
    table = null;
    paragraph = [];
  };
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (line.startsWith('|')) {
      if (paragraph.length > 0) flush();
      table ??= [];
      const cells = line
        .slice(1, line.endsWith('|') ? -1 : undefined)
        .split('|')
        .map((c) => c.trim());
      if (!cells.every((c) => /^:?-+:?$/.test(c))) table.push(cells);
    } else if (line === '') flush();
    else {
      if (table !== null) flush();
      paragraph.push(line);
    }
  }
  flush();
  return { tables, paragraphs };
}

/** The one table of `tables` whose header is exactly `header`. */
function tableWith(tables: readonly Table[], header: readonly string[], where: string): Table {
  const found = tables.filter((t) => t.header.join('|') === header.join('|'));
  if (found.length !== 1) {
    throw new Error(`${where}: expected one table headed ${header.join(' | ')}, found ${found.length}`);
  }
  const table = found[0]!;
  for (const row of table.rows) {
    if (row.length !== header.length)
      throw new Error(`${where}: row "${row.join(' | ')}" has the wrong width`);
  }
  return table;
}

/** "long", "Request", "list of InvoiceDetails, items `<InvoiceDetails>`". */
export function parseDocType(text: string): DocType {
  const list = /^list of (\w+), items `<(\w+)>`$/.exec(text);
  if (list?.[1] !== undefined && list[2] !== undefined)
    return { kind: 'list', item: list[1], itemElement: list[2] };
  if (isScalarType(text)) return { kind: 'scalar', type: text };
  if (/^[A-Z]\w*$/.test(text)) return { kind: 'complex', type: text };
  throw new Error(`Unreadable type "${text}"`);
}

function readName(text: string, what: string): string {
  if (!NAME.test(text)) throw new Error(`Unreadable ${what} "${text}"`);
  return text;
}

function readField(name: string, type: string, minOccurs: string, nillable: string): DocField {
  if (minOccurs !== '0' && minOccurs !== '1')
    throw new Error(`${name}: minOccurs "${minOccurs}" is not 0 or 1`);
  if (nillable !== 'yes' && nillable !== 'no')
    throw new Error(`${name}: nillable "${nillable}" is not yes or no`);
  return {
    name: readName(name, 'field name'),
    type: parseDocType(type),
    minOccurs: minOccurs === '1' ? 1 : 0,
    nillable: nillable === 'yes',
  };
}

/** "input of A, B; list item of C." */
function readRoles(text: string, where: string): DocRole[] {
  const body = /^Used as: (.+)\.$/.exec(text)?.[1];
  if (body === undefined) throw new Error(`${where}: unreadable "${text}"`);
  return body.split('; ').map((part) => {
    const m = /^(input|result|list item) of (.+)$/.exec(part);
    if (m?.[1] === undefined || m[2] === undefined) throw new Error(`${where}: unreadable role "${part}"`);
    const operations = m[2].split(', ').map((n) => readName(n, 'operation name'));
    return { kind: m[1] as DocRoleKind, operations };
  });
}

function readType(name: string, body: string): DocComplexType {
  if (!/^[A-Z][A-Za-z0-9]*$/.test(name)) throw new Error(`Unreadable type heading "${name}"`);
  const { tables, paragraphs } = blocks(body);
  if (tables.length !== 1) throw new Error(`${name}: expected one field table, found ${tables.length}`);
  const table = tableWith(tables, ['Field', 'XSD type', 'minOccurs', 'nillable'], name);
  let base: string | undefined;
  let roles: DocRole[] = [];
  for (const paragraph of paragraphs) {
    if (paragraph.startsWith('Used as')) roles = readRoles(paragraph, name);
    else if (paragraph.startsWith('Extends')) {
      const m = /^Extends: (\w+)\.$/.exec(paragraph);
      if (m?.[1] === undefined) throw new Error(`${name}: unreadable "${paragraph}"`);
      base = m[1];
    }
    // Any other paragraph is the type's description.
  }
  const fields = table.rows.map(([field = '', type = '', min = '', nil = '']) =>
    readField(field, type, min, nil),
  );
  return { name, base, fields, roles };
}

function readTypes(markdown: string): DocComplexType[] {
  return [...sections(section(markdown, 2, 'Types'), 3)].map(([name, body]) => readType(name, body));
}

function readOperations(markdown: string): { operations: DocOperation[]; areaOperations: string[] } {
  const { tables } = blocks(section(markdown, 2, 'Operations'));
  if (tables.length !== 3) throw new Error(`Operations: expected three tables, found ${tables.length}`);
  const areas = tableWith(tables, ['Area', 'Operations'], 'Operations, areas');
  const ops = tableWith(tables, ['Operation', 'Result', 'HTTP GET/POST root element'], 'Operations');
  const params = tableWith(
    tables,
    ['Operation', 'Parameter', 'XSD type', 'minOccurs', 'nillable'],
    'Operations, parameters',
  );
  const byName = new Map<string, { params: DocField[]; result: DocType; rootElement: string | null }>();
  for (const [name = '', result = '', root = ''] of ops.rows) {
    if (byName.has(name)) throw new Error(`Operation ${name} is listed twice`);
    byName.set(readName(name, 'operation name'), {
      params: [],
      result: parseDocType(result),
      rootElement: root === SOAP_ONLY ? null : readName(root, `root element of ${name}`),
    });
  }
  for (const [op = '', name = '', type = '', min = '', nil = ''] of params.rows) {
    const target = byName.get(op);
    if (target === undefined) throw new Error(`Parameter ${name} of ${op}: no such operation`);
    target.params.push(readField(name, type, min, nil));
  }
  return {
    operations: [...byName].map(([name, op]) => ({ name, ...op })),
    areaOperations: areas.rows.flatMap(([, names = '']) =>
      names.split(', ').map((n) => readName(n, 'operation name')),
    ),
  };
}

export function parseInterfaceDoc(markdown: string): InterfaceDoc {
  const text = markdown.replace(/\r\n/g, '\n');
  return { types: readTypes(text), ...readOperations(text) };
}
