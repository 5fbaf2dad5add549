/**
 * The sample requests and responses of an operation's help page (asmx-compatibility.md §1.7), as
 * ASMX's help generator writes them: the message with every parameter and field expanded, each value
 * a placeholder naming its XSD type (`string`, `long`, `dateTime`…) in `<font class=value>`, list
 * items shown twice, an enumeration shown by its first value. Derived from the contract table; returns HTML (the XML is escaped to show).
 */
import {
  type FieldType,
  fieldsOf,
  findComplexType,
  hasSimpleParams,
  httpRootElement,
  isScalarType,
  type Operation,
} from '../../shared/contract/index.ts';
import { servedOverGet } from '../../shared/contract/effects.ts';
import { operationSoapAction } from './wsdl.ts';
import { escapeText } from './xml-escape.ts';

export interface SampleContext {
  readonly namespace: string;
  /** `127.0.0.1:3000`, from the request's Host. */
  readonly host: string;
  /** `/TransactionService.asmx`. */
  readonly path: string;
}

export interface Sample {
  /** `SOAP 1.1`, `SOAP 1.2`, `HTTP GET`, `HTTP POST`. */
  readonly title: string;
  /** Contents of the request's and the response's `<pre>`, as HTML. */
  readonly request: string;
  readonly response: string;
}

/** A placeholder as ASMX shows it: `<font class=value>string</font>`. */
export function placeholder(text: string): string {
  return `<font class=value>${escapeText(text)}</font>`;
}

const XSI_XSD =
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"';

/** Lines of escaped XML, indented two spaces a level as in ASMX's samples. */
class SampleXml {
  private readonly lines: string[] = [];
  private depth = 0;

  constructor(depth = 0) {
    this.depth = depth;
  }

  /** A line of markup; `markup` is XML text, escaped here for showing in HTML. */
  private push(markup: string, valueHtml = '', closing = ''): void {
    this.lines.push(`${'  '.repeat(this.depth)}${escapeText(markup)}${valueHtml}${escapeText(closing)}`);
  }

  open(tag: string): void {
    this.push(`<${tag}>`);
    this.depth++;
  }

  close(name: string): void {
    this.depth--;
    this.push(`</${name}>`);
  }

  empty(tag: string): void {
    this.push(`<${tag} />`);
  }

  /** `<name>placeholder</name>` on one line. */
  value(tag: string, name: string, type: string): void {
    this.push(`<${tag}>`, placeholder(type), `</${name}>`);
  }

  field(name: string, type: FieldType, open: ReadonlySet<string> = new Set()): void {
    if (type.kind === 'scalar') {
      this.value(name, name, type.type);
    } else if (type.kind === 'enum') {
      this.value(name, name, type.values[0] ?? '');
    } else if (type.kind === 'complex') {
      this.complex(name, name, type.type, open);
    } else {
      this.open(name);
      // ASMX shows two items so that a list looks like one.
      for (let i = 0; i < 2; i++) this.field(type.itemElement, listItemType(type.item), open);
      this.close(name);
    }
  }

  /** `<tag>` with the fields of `typeName`; a type inside itself is shown empty, not expanded. */
  complex(tag: string, name: string, typeName: string, open: ReadonlySet<string> = new Set()): void {
    const type = findComplexType(typeName);
    if (type === undefined) throw new Error(`The contract refers to an unknown complex type ${typeName}`);
    const fields = fieldsOf(type);
    if (fields.length === 0 || open.has(typeName)) {
      this.empty(tag);
      return;
    }
    const inner = new Set(open).add(typeName);
    this.open(tag);
    for (const f of fields) this.field(f.name, f.type, inner);
    this.close(name);
  }

  toString(): string {
    return this.lines.join('\n');
  }
}

function listItemType(item: string): FieldType {
  return isScalarType(item) ? { kind: 'scalar', type: item } : { kind: 'complex', type: item };
}

function soapEnvelope(prefix: 'soap' | 'soap12', envNs: string, wrapper: string, op: Operation, ns: string) {
  const xml = new SampleXml();
  xml.open(`${prefix}:Envelope ${XSI_XSD} xmlns:${prefix}="${envNs}"`);
  xml.open(`${prefix}:Body`);
  const tag = `${wrapper} xmlns="${ns}"`;
  const children: [string, FieldType][] =
    wrapper === op.name
      ? op.params.map((p): [string, FieldType] => [p.name, p.type])
      : op.result
        ? [[`${op.name}Result`, op.result]]
        : [];
  if (children.length === 0) {
    xml.empty(tag);
  } else {
    xml.open(tag);
    for (const [name, type] of children) xml.field(name, type);
    xml.close(wrapper);
  }
  xml.close(`${prefix}:Body`);
  xml.close(`${prefix}:Envelope`);
  return `${escapeText('<?xml version="1.0" encoding="utf-8"?>')}\n${xml}`;
}

const LENGTH = `Content-Length: ${placeholder('length')}`;

function soapSample(version: '1.1' | '1.2', op: Operation, ctx: SampleContext): Sample {
  const v11 = version === '1.1';
  const [prefix, envNs, contentType] = v11
    ? (['soap', 'http://schemas.xmlsoap.org/soap/envelope/', 'text/xml; charset=utf-8'] as const)
    : (['soap12', 'http://www.w3.org/2003/05/soap-envelope', 'application/soap+xml; charset=utf-8'] as const);
  const headers = [
    `POST ${escapeText(ctx.path)} HTTP/1.1`,
    `Host: ${escapeText(ctx.host)}`,
    `Content-Type: ${contentType}`,
    LENGTH,
  ];
  if (v11) headers.push(`SOAPAction: ${escapeText(`"${operationSoapAction(ctx.namespace, op.name)}"`)}`);
  return {
    title: `SOAP ${version}`,
    request: `${headers.join('\n')}\n\n${soapEnvelope(prefix, envNs, op.name, op, ctx.namespace)}`,
    response: [
      'HTTP/1.1 200 OK',
      `Content-Type: ${contentType}`,
      LENGTH,
      '',
      soapEnvelope(prefix, envNs, `${op.name}Response`, op, ctx.namespace),
    ].join('\n'),
  };
}

/** The GET/POST response: the result under a root named after its type (httpRootElement). */
function httpResponse(op: Operation, ctx: SampleContext): string {
  const head = ['HTTP/1.1 200 OK', 'Content-Type: text/xml; charset=utf-8', LENGTH].join('\n');
  const root = httpRootElement(op);
  const result = op.result;
  if (root === null || result === null) return head;
  const xml = new SampleXml();
  const tag = `${root} xmlns="${ctx.namespace}"`;
  if (result.kind === 'scalar') {
    xml.value(tag, root, result.type);
  } else if (result.kind === 'enum') {
    xml.value(tag, root, result.values[0] ?? '');
  } else if (result.kind === 'complex') {
    xml.complex(tag, root, result.type);
  } else {
    xml.open(tag);
    for (let i = 0; i < 2; i++) xml.field(result.itemElement, listItemType(result.item));
    xml.close(root);
  }
  return `${head}\n\n${escapeText('<?xml version="1.0" encoding="utf-8"?>')}\n${xml}`;
}

/** `a=string&b=string`: every GET/POST parameter is text, so ASMX shows `string` for all. */
function formParams(op: Operation): string {
  return op.params
    .map((p) => `${escapeText(encodeURIComponent(p.name))}=${placeholder('string')}`)
    .join('&amp;');
}

function httpSamples(op: Operation, ctx: SampleContext, get: boolean): Sample[] {
  const url = `${escapeText(ctx.path)}/${escapeText(encodeURIComponent(op.name))}`;
  const query = op.params.length > 0 ? `?${formParams(op)}` : '';
  const host = `Host: ${escapeText(ctx.host)}`;
  const response = httpResponse(op, ctx);
  return [
    ...(get ? [{ title: 'HTTP GET', request: `GET ${url}${query} HTTP/1.1\n${host}`, response }] : []),
    {
      title: 'HTTP POST',
      request: [
        `POST ${url} HTTP/1.1`,
        host,
        'Content-Type: application/x-www-form-urlencoded',
        LENGTH,
        '',
        formParams(op),
      ].join('\n'),
      response,
    },
  ];
}

/**
 * SOAP 1.1 and 1.2 samples, then HTTP GET and POST when they are on and the operation has them (GET
 * for an operation that changes state only when `httpGetChanges`).
 */
export function operationSamples(
  op: Operation,
  ctx: SampleContext,
  httpBindings: boolean,
  httpGetChanges = false,
): Sample[] {
  const samples = [soapSample('1.1', op, ctx), soapSample('1.2', op, ctx)];
  if (httpBindings && hasSimpleParams(op))
    samples.push(...httpSamples(op, ctx, servedOverGet(op.name, httpGetChanges)));
  return samples;
}
