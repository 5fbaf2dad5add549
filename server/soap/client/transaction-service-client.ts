/**
 * The Transaction Service over real SOAP: the remote side of the TransactionService port (DESIGN.md
 * "Parts and how data flows"), used when the checkout server runs apart from the gateway.
 *
 * Built from the contract like everything else (DESIGN.md §1): one method per operation, generated
 * from `operations`, each encoding its parameters with the codec the gateway uses, sending them to
 * `{baseUrl}/TransactionService.asmx` the way the spec's SOAP 1.1 / 1.2 bindings say, and decoding
 * the answer with the gateway's strict XML reader. Failures are typed (`errors.ts`).
 *
 * Request bodies are never logged nor put into an error: they can hold card data (DESIGN.md §5).
 */

import type { OperationName, OperationParams, OperationResult } from '../../../shared/contract/index.ts';
import { operations } from '../../../shared/contract/index.ts';
import type { Operation } from '../../../shared/contract/model.ts';
import type { TransactionService } from '../../../shared/contract/service.ts';
import { DecodeError } from '../codec/decode.ts';
import { EncodeError } from '../codec/encode.ts';
import { decodeSoapResult, encodeSoapRequest } from '../codec/messages.ts';
import { contentTypeOf, SOAP11_NS, SOAP12_NS, type SoapVersion } from '../soap-fault.ts';
import { operationSoapAction } from '../wsdl.ts';
import { childElements, decodeBytes, readXml, textOf, type XmlElement } from '../xml/index.ts';
import {
  SoapContractError,
  type SoapFaultCode,
  SoapFaultError,
  SoapHttpError,
  SoapTimeoutError,
  SoapTransportError,
} from './errors.ts';

// The spec's service path ("Endpoints"); plugin.ts serves it.
const SERVICE_PATH = '/TransactionService.asmx';

export interface TransactionServiceClientOptions {
  /** The spec's {base_url}: scheme, host and port, e.g. `http://127.0.0.1:3000` (a path prefix is kept). */
  baseUrl: string;
  /** The spec's {namespace}, ending with a slash. */
  namespace: string;
  soapVersion?: SoapVersion;
  /** HTTP Basic credentials (DESIGN.md §6): `MerchantID` + `TransactionKey`, or a service credential. */
  username?: string;
  password?: string;
  /** A merchant user's Login session token, sent as `Authorization: Bearer …` (instead of Basic). */
  bearerToken?: string;
  /** Time for the whole call, answer body included. Default 15 000 ms. */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** Per-call options: the second argument of every method. */
export interface ClientCallOptions {
  /** Cancels the call; the abort reason is rethrown as is. */
  signal?: AbortSignal;
  /** Overrides the client's time limit for this call. */
  timeoutMs?: number;
  /** Sent as `X-Request-Id`, which the gateway uses as its request id in its logs. */
  requestId?: string;
  /** More headers for this call (the checkout's relay headers); they cannot replace the SOAP ones. */
  headers?: Record<string, string>;
}

/** The port as the client offers it: the per-call options may be left out. */
export type ClientMethods = {
  readonly [N in OperationName]: (
    params: OperationParams<N>,
    call?: ClientCallOptions,
  ) => Promise<OperationResult<N>>;
};

// The methods are generated in the constructor; this gives the class their types (no per-operation code).
const WithServiceMethods = class {} as new () => ClientMethods;

export class TransactionServiceClient
  extends WithServiceMethods
  implements TransactionService<ClientCallOptions | undefined>
{
  readonly url: string;
  readonly soapVersion: SoapVersion;
  readonly #namespace: string;
  readonly #timeoutMs: number;
  readonly #authorization: string | undefined;
  readonly #fetch: typeof fetch;

  constructor(options: TransactionServiceClientOptions) {
    super();
    this.url = `${options.baseUrl.replace(/\/+$/, '')}${SERVICE_PATH}`;
    this.soapVersion = options.soapVersion ?? '1.1';
    this.#namespace = options.namespace;
    this.#timeoutMs = options.timeoutMs ?? 15_000;
    this.#fetch = options.fetch ?? globalThis.fetch;
    this.#authorization =
      options.bearerToken !== undefined
        ? `Bearer ${options.bearerToken}`
        : basicAuthorization(options.username, options.password);
    const self = this as unknown as Record<string, unknown>;
    for (const op of operations as readonly Operation[]) {
      self[op.name] = (params: Record<string, unknown>, call?: ClientCallOptions) =>
        this.#call(op, params, call);
    }
  }

  /** Calls an operation by name: the same as `client[name](params, call)`. */
  call<N extends OperationName>(
    name: N,
    params: OperationParams<N>,
    call?: ClientCallOptions,
  ): Promise<OperationResult<N>> {
    return (this[name] as ClientMethods[N])(params, call);
  }

  async #call(
    op: Operation,
    params: Record<string, unknown>,
    call: ClientCallOptions = {},
  ): Promise<unknown> {
    const body = encodeRequest(op, params, this.#namespace, this.soapVersion);
    const action = operationSoapAction(this.#namespace, op.name); // the WSDL's rule, as the server routes
    const headers: Record<string, string> =
      this.soapVersion === '1.1'
        ? { 'content-type': contentTypeOf('1.1'), soapaction: `"${action}"` }
        : { 'content-type': `${contentTypeOf('1.2')}; action="${action}"` };
    const own = { ...headers };
    Object.assign(headers, call.headers, own);
    if (this.#authorization) headers.authorization = this.#authorization;
    if (call.requestId) headers['x-request-id'] = call.requestId;

    const timeoutMs = call.timeoutMs ?? this.#timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = call.signal ? AbortSignal.any([call.signal, timeout]) : timeout;

    let status: number;
    let responseHeaders: Headers;
    let bytes: Uint8Array;
    try {
      const response = await this.#fetch(this.url, {
        method: 'POST',
        headers,
        body,
        signal,
        redirect: 'manual',
      });
      status = response.status;
      responseHeaders = response.headers;
      bytes = new Uint8Array(await response.arrayBuffer());
    } catch (err) {
      if (call.signal?.aborted) throw call.signal.reason;
      if (timeout.aborted) throw new SoapTimeoutError(op.name, timeoutMs);
      throw new SoapTransportError(op.name, errnoOf(err), err);
    }
    return readResponse(op, this.#namespace, status, responseHeaders, bytes);
  }
}

function basicAuthorization(username: string | undefined, password: string | undefined): string | undefined {
  if (username === undefined && password === undefined) return undefined;
  // RFC 7617: the user-id cannot contain a colon. Not echoed: it may be a secret-bearing id.
  if (username?.includes(':')) throw new TypeError('An HTTP Basic user name cannot contain a colon');
  return `Basic ${Buffer.from(`${username ?? ''}:${password ?? ''}`, 'utf8').toString('base64')}`;
}

function encodeRequest(op: Operation, params: Record<string, unknown>, ns: string, version: SoapVersion) {
  try {
    return encodeSoapRequest(op, params ?? {}, ns, version);
  } catch (err) {
    // The codec's message can quote the value (a card number sent as a long); keep only the path.
    if (err instanceof EncodeError) throw new SoapContractError(op.name, 'request', leadingPath(err.message));
    throw err;
  }
}

/** The element path a codec message starts with (`request/Amount: …`, `x is required …`). */
function leadingPath(message: string): string | undefined {
  return /^([A-Za-z_][\w./[\]-]*)(?::| is required)/.exec(message)?.[1];
}

function errnoOf(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

/** `Retry-After` in seconds: delta-seconds or an HTTP date. */
function retryAfterOf(headers: Headers): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

function readResponse(
  op: Operation,
  ns: string,
  status: number,
  headers: Headers,
  bytes: Uint8Array,
): unknown {
  const contentType = headers.get('content-type') ?? undefined;
  const envelope = bytes.length === 0 ? undefined : readEnvelope(bytes, contentType);
  const fault =
    envelope && childElements(envelope.body).find((c) => c.ns === envelope.ns && c.local === 'Fault');
  if (envelope && fault) {
    throw new SoapFaultError(op.name, {
      ...readFault(fault, envelope.ns),
      status,
      retryAfter: retryAfterOf(headers),
      soapVersion: envelope.ns === SOAP11_NS ? '1.1' : '1.2',
    });
  }
  if (status !== 200) throw new SoapHttpError(op.name, status, retryAfterOf(headers), contentType);
  if (!envelope) throw new SoapContractError(op.name, 'response', undefined);
  try {
    return decodeSoapResult(envelope.body, op, ns);
  } catch (err) {
    if (err instanceof DecodeError) throw new SoapContractError(op.name, 'response', err.path);
    if (err instanceof EncodeError) throw new SoapContractError(op.name, 'response', `${op.name}Response`);
    throw err;
  }
}

/** The Body of a SOAP 1.1 or 1.2 envelope, or undefined for anything else (HTML, text, bad XML). */
function readEnvelope(
  bytes: Uint8Array,
  contentType: string | undefined,
): { ns: string; body: XmlElement } | undefined {
  let root: XmlElement;
  try {
    root = readXml(decodeBytes(bytes, contentType));
  } catch {
    return undefined;
  }
  if (root.local !== 'Envelope' || (root.ns !== SOAP11_NS && root.ns !== SOAP12_NS)) return undefined;
  const body = childElements(root).find((c) => c.ns === root.ns && c.local === 'Body');
  return body && { ns: root.ns, body };
}

const child = (el: XmlElement | undefined, ns: string, local: string) =>
  el && childElements(el).find((c) => c.ns === ns && c.local === local);

/** The text of a simple element as sent ('' for one that holds elements); undefined when absent. */
const rawText = (el: XmlElement | undefined) => (el ? (textOf(el) ?? '') : undefined);
const text = (el: XmlElement | undefined) => rawText(el)?.trim();

/** `soap:Client` → `Client`; prefixes are not resolved, both versions use the envelope's. */
const localOf = (qname: string | undefined) => (qname ?? '').slice((qname ?? '').indexOf(':') + 1);

const SOAP12_TO_11: Record<string, SoapFaultCode> = { Sender: 'Client', Receiver: 'Server' };

/** Both fault shapes of asmx-compatibility.md §1.3: 1.1 faultcode/faultstring/detail, 1.2 Code/Reason/Detail. */
function readFault(fault: XmlElement, envNs: string) {
  let code: string;
  let faultstring: string;
  let subcode: string | undefined;
  let detail: XmlElement | undefined;
  if (envNs === SOAP11_NS) {
    // faultcode, faultstring and detail are unqualified in SOAP 1.1.
    code = localOf(text(child(fault, '', 'faultcode')));
    faultstring = rawText(child(fault, '', 'faultstring')) ?? '';
    detail = child(fault, '', 'detail');
  } else {
    const codeEl = child(fault, envNs, 'Code');
    const value = localOf(text(child(codeEl, envNs, 'Value')));
    code = SOAP12_TO_11[value] ?? value;
    const sub = text(child(child(codeEl, envNs, 'Subcode'), envNs, 'Value'));
    subcode = sub === undefined ? undefined : localOf(sub);
    const reason = child(fault, envNs, 'Reason');
    const texts = reason ? childElements(reason).filter((c) => c.ns === envNs && c.local === 'Text') : [];
    const english = texts.find((t) => t.attrs.some((a) => a.local === 'lang' && a.value.startsWith('en')));
    faultstring = rawText(english ?? texts[0]) ?? '';
    detail = child(fault, envNs, 'Detail');
  }
  const errorCodeEl = detail && childElements(detail).find((c) => c.local === 'ErrorCode');
  return { code, faultstring, subcode, errorCode: text(errorCodeEl) || undefined };
}
