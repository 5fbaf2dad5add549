/**
 * Every free-text element of every operation of the Transaction Service, derived from the contract
 * (the elements shared/contract/card-text.ts checks), each with a message that puts a chosen value
 * there and neutral values everywhere else; and one call of such a message through each way a
 * caller reaches the gateway: SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST (operations with simple
 * parameters) and in-process. Used by the card-data-at-rest test.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { CARD_DATA_ELEMENTS, CARD_DATA_PARAMS } from '../../../shared/contract/card-text.ts';
import {
  type ComplexTypeName,
  type Field,
  fieldsOf,
  formatScalar,
  hasSimpleParams,
  isScalarType,
  type Operation,
  operations,
  requiredDefaults,
  type ScalarType,
} from '../../../shared/contract/index.ts';
import type { OperationName } from '../../../shared/contract/operations.ts';
import type { TransactionService } from '../../../shared/contract/service.ts';
import { encodeSoapRequest } from '../../../server/soap/codec/messages.ts';
import { OPERATION_ACCESS } from '../../../server/gateway/principal.ts';
import type { CallContext, Principal } from '../../../server/gateway/port.ts';
import { type As, basic, NS } from './soap-call.ts';

export interface TextElement {
  operation: Operation;
  /** As a fault names it: `request/CustomValue1`, `invoiceRequest/Invoices/InvoiceDetails[1]/InvoiceNumber`. */
  path: string;
  /** The operation's parameters with `value` in this element. */
  params(value: string): Record<string, unknown>;
}

const NEUTRAL: Record<ScalarType, unknown> = {
  string: '',
  long: '0',
  int: 0,
  decimal: '0',
  boolean: false,
  dateTime: '2026-01-01T00:00:00',
};

/**
 * Values that make a message otherwise valid, so that without the card-number rule it would be
 * stored: a type's fields (`Request: { MerchantID, Amount, … }`) and operations' scalar
 * parameters by name (`merchantID`). What is not given is neutral.
 */
export interface Bases {
  types?: { readonly [T in ComplexTypeName]?: Record<string, unknown> };
  params?: Record<string, unknown>;
}

function neutralParams(op: Operation, bases: Bases): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of op.params) {
    if (p.type.kind === 'scalar') out[p.name] = bases.params?.[p.name] ?? NEUTRAL[p.type.type];
    // A required enumeration (AuthorizeWebhookDelivery's kind): its first value, the neutral one.
    else if (p.type.kind === 'enum') out[p.name] = bases.params?.[p.name] ?? p.type.values[0];
  }
  return out;
}

/** Each string element under `fields`, with a builder of the value that holds it. */
function walk(
  bases: Bases,
  fields: readonly Field[],
  skip: readonly string[] | undefined,
  path: string,
  wrap: (inner: (value: string) => Record<string, unknown>) => (value: string) => unknown,
  base: () => Record<string, unknown>,
  out: Array<{ path: string; build: (value: string) => unknown }>,
): void {
  for (const field of fields) {
    if (skip?.includes(field.name)) continue;
    const at = path ? `${path}/${field.name}` : field.name;
    const type = field.type;
    if (type.kind === 'scalar' && type.type === 'string') {
      out.push({ path: at, build: wrap((value) => ({ ...base(), [field.name]: value })) });
    } else if (type.kind === 'complex') {
      const name = type.type as ComplexTypeName;
      walk(
        bases,
        fieldsOf(name),
        CARD_DATA_ELEMENTS[name] as readonly string[] | undefined,
        at,
        (inner) => wrap((value) => ({ ...base(), [field.name]: inner(value) })),
        () => ({ ...requiredDefaults(name), ...bases.types?.[name] }),
        out,
      );
    } else if (type.kind === 'list' && type.item === 'string') {
      out.push({
        path: `${at}/${type.itemElement}[1]`,
        build: wrap((value) => ({ ...base(), [field.name]: [value] })),
      });
    } else if (type.kind === 'list' && !isScalarType(type.item)) {
      const name = type.item as ComplexTypeName;
      walk(
        bases,
        fieldsOf(name),
        CARD_DATA_ELEMENTS[name] as readonly string[] | undefined,
        `${at}/${type.itemElement}[1]`,
        (inner) => wrap((value) => ({ ...base(), [field.name]: [inner(value)] })),
        () => ({ ...requiredDefaults(name), ...bases.types?.[name] }),
        out,
      );
    }
  }
}

/** Every free-text element of every operation's parameters, the rest of each message from `bases`. */
export function textElements(bases: Bases = {}): TextElement[] {
  const out: TextElement[] = [];
  for (const operation of operations as readonly Operation[]) {
    const found: Array<{ path: string; build: (value: string) => unknown }> = [];
    const skip = CARD_DATA_PARAMS[operation.name as OperationName] as readonly string[] | undefined;
    walk(
      bases,
      operation.params,
      skip,
      '',
      (inner) => inner,
      () => neutralParams(operation, bases),
      found,
    );
    for (const { path, build } of found) {
      out.push({ operation, path, params: (value) => build(value) as Record<string, unknown> });
    }
  }
  return out;
}

export type Binding = 'soap11' | 'soap12' | 'httpGet' | 'httpPost' | 'inProcess';

/** The bindings an operation is served on. */
export function bindingsOf(op: Operation): Binding[] {
  return hasSimpleParams(op)
    ? ['soap11', 'soap12', 'httpGet', 'httpPost', 'inProcess']
    : ['soap11', 'soap12', 'inProcess'];
}

export interface Callers {
  merchant: { merchantId: string; key: string };
  serviceKey: string;
  /** A merchant user's Login session token, for the operations of its own session. */
  userToken: string;
  /** An Owner's session with its second factor verified, for the `merchantUser` operations. */
  ownerToken?: string;
}

function callerOf(op: Operation, callers: Callers): As {
  const access = OPERATION_ACCESS[op.name as OperationName];
  if (access === 'public') return null;
  if (access === 'user') return { bearer: callers.userToken };
  if (access === 'merchantUser' && callers.ownerToken) return { bearer: callers.ownerToken };
  return access === 'service' ? { service: callers.serviceKey } : callers.merchant;
}

/** In process: the principal given, or (a Login session) none, the token authenticated instead. */
function principalOf(as: As): Principal | undefined {
  if (as === null) return { kind: 'anonymous' };
  if ('bearer' in as) return undefined;
  return 'service' in as ? { kind: 'service' } : { kind: 'merchant', merchantId: as.merchantId };
}

export interface Answer {
  status: number;
  /** What the caller reads: the response body, or the thrown error's message and fields. */
  text: string;
}

/** One call of `op` with `params` through `binding`, as the caller allowed to make it. */
export async function callThrough(
  app: FastifyInstance,
  service: TransactionService<CallContext>,
  log: FastifyBaseLogger,
  binding: Binding,
  op: Operation,
  params: Record<string, unknown>,
  callers: Callers,
): Promise<Answer> {
  const as = callerOf(op, callers);
  if (binding === 'inProcess') {
    const context: CallContext = {
      binding: 'inProcess',
      requestId: 'text-elements',
      remoteAddress: '127.0.0.1',
      log,
      authorization: basic(as).authorization,
      ...(principalOf(as) ? { principal: principalOf(as) } : {}),
    };
    const handler = service[op.name as OperationName] as (p: unknown, c: CallContext) => Promise<unknown>;
    try {
      return { status: 200, text: JSON.stringify(await handler.call(service, params, context)) };
    } catch (err) {
      const e = err as { status?: number; message: string; fields?: unknown };
      return { status: e.status ?? 500, text: JSON.stringify({ message: e.message, fields: e.fields }) };
    }
  }
  if (binding === 'httpGet' || binding === 'httpPost') {
    const form = new URLSearchParams();
    for (const p of op.params) {
      if (p.type.kind !== 'scalar') continue;
      const value = params[p.name] ?? NEUTRAL[p.type.type];
      form.set(p.name, formatScalar(p.type.type, value as never));
    }
    const url = `/TransactionService.asmx/${op.name}`;
    const res = await app.inject(
      binding === 'httpGet'
        ? { method: 'GET', url: `${url}?${form}`, headers: basic(as) }
        : {
            method: 'POST',
            url,
            headers: { 'content-type': 'application/x-www-form-urlencoded', ...basic(as) },
            payload: form.toString(),
          },
    );
    return { status: res.statusCode, text: `${JSON.stringify(res.headers)}\n${res.body}` };
  }
  const version = binding === 'soap11' ? '1.1' : '1.2';
  const res = await app.inject({
    method: 'POST',
    url: '/TransactionService.asmx',
    headers: {
      'content-type':
        version === '1.1'
          ? 'text/xml; charset=utf-8'
          : `application/soap+xml; charset=utf-8; action="${NS}${op.name}"`,
      ...(version === '1.1' ? { soapaction: `"${NS}${op.name}"` } : {}),
      ...basic(as),
    },
    payload: encodeSoapRequest(op, params, NS, version),
  });
  return { status: res.statusCode, text: `${JSON.stringify(res.headers)}\n${res.body}` };
}
