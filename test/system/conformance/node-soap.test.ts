/**
 * Conformance with node-soap 1.13.0 (DESIGN.md "How it is tested"): `soap.createClientAsync` reads
 * `?WSDL` from the real server and calls every operation over SOAP 1.1 (port TransactionServiceSoap)
 * and SOAP 1.2 (port TransactionServiceSoap12 with `forceSoap12Headers`), with both sample variants.
 *
 * The handler must receive exactly the sample parameters, and the raw response must carry exactly
 * the sample result (read back with Payframe's own decoder). node-soap's parsed object is lossy by
 * design (asmx-compatibility.md §3), so it is compared with the sample put through node-soap's own
 * documented rules (README.md):
 *  - long and int are parsed with parseInt: a long above 2^53 loses precision;
 *  - decimal is parsed with Number: `10.50` becomes 10.5;
 *  - dateTime becomes `new Date(text)`: an offset-less value is read as local time, 100 ns digits lost;
 *  - a list inside `<X>` comes as `{ ItemElement: [...] }`, and must be passed in that shape too (a
 *    plain array repeats the `<X>` element itself, which is not the schema);
 *  - an xsi:nil element is left out; an empty list result (`<OpResult />`) is null;
 *  - two clients made from one WSDL URL share node-soap's cached WSDL and its options
 *    (`forceSoap12Headers`): create each with `disableCache: true`.
 * A client created with `customDeserializer` for long/decimal/dateTime gets the exact strings.
 */
import soap from 'soap';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldsOf, findComplexType, getOperation, operations } from '../../../shared/contract/index.ts';
import type { Field, FieldType, Operation } from '../../../shared/contract/model.ts';
import { isScalarType } from '../../../shared/contract/model.ts';
import { PayframeError } from '../../../server/errors.ts';
import { decodeSoapResult } from '../../../server/soap/codec/messages.ts';
import { sampleParams, sampleResult, type Variant } from '../../kit/soap/sample-values.ts';
import { childElements, readXml } from '../../../server/soap/xml/index.ts';
import { type ServedService, serveRecordingService } from '../../kit/soap/serve.ts';

type SoapVersion = '1.1' | '1.2';
const PORTS = { '1.1': 'TransactionServiceSoap', '1.2': 'TransactionServiceSoap12' } as const;

interface NodeSoapAnswer {
  result: unknown;
  rawResponse: string;
}

type PortMethod = (
  args: unknown,
  callback: (err: unknown, result: unknown, rawResponse: string) => void,
) => void;

let s: ServedService;
const clients = {} as Record<SoapVersion | 'exact', soap.Client>;

beforeAll(async () => {
  s = await serveRecordingService();
  // Clients made from one WSDL URL share node-soap's cached WSDL object, and with it options such
  // as forceSoap12Headers (the last client created wins): each client gets its own with disableCache.
  const own = { disableCache: true };
  clients['1.1'] = await soap.createClientAsync(s.wsdlUrl, own);
  clients['1.2'] = await soap.createClientAsync(s.wsdlUrl, { ...own, forceSoap12Headers: true });
  const asText = (text: string) => text;
  clients.exact = await soap.createClientAsync(s.wsdlUrl, {
    ...own,
    customDeserializer: { long: asText, decimal: asText, dateTime: asText },
  });
}, 30_000);
afterAll(() => s?.close());

/** Calls through a named port with the callback API (the *Async methods only exist for the first port). */
function call(version: SoapVersion | 'exact', op: string, args: unknown): Promise<NodeSoapAnswer> {
  const services = clients[version] as unknown as Record<string, Record<string, Record<string, PortMethod>>>;
  const method = services.TransactionService![PORTS[version === 'exact' ? '1.1' : version]]![op]!;
  return new Promise((resolve, reject) => {
    method(args, (err, result, rawResponse) => (err ? reject(err) : resolve({ result, rawResponse })));
  });
}

const itemType = (item: string): FieldType =>
  isScalarType(item) ? { kind: 'scalar', type: item } : { kind: 'complex', type: item };

const fieldsOfType = (name: string) => fieldsOf(findComplexType(name)!);

/** Contract params in the shape node-soap serializes as the schema says: lists inside their item element. */
function toArgs(value: unknown, type: FieldType): unknown {
  if (value === null || value === undefined || type.kind === 'scalar' || type.kind === 'enum') return value;
  if (type.kind === 'list') {
    return { [type.itemElement]: (value as unknown[]).map((v) => toArgs(v, itemType(type.item))) };
  }
  return argsOf(value as Record<string, unknown>, fieldsOfType(type.type));
}

function argsOf(value: Record<string, unknown>, fields: readonly Field[]): Record<string, unknown> {
  return Object.fromEntries(
    fields.filter((f) => f.name in value).map((f) => [f.name, toArgs(value[f.name], f.type)]),
  );
}

const SCALAR_VIEW: Record<string, (text: string) => unknown> = {
  long: (t) => Number.parseInt(t, 10),
  int: (t) => Number.parseInt(t, 10),
  decimal: (t) => Number(t),
  dateTime: (t) => new Date(t),
};

/** What node-soap's parser makes of a contract value (see the header); undefined: left out. */
function expectedView(value: unknown, type: FieldType): unknown {
  if (value === null) return undefined; // node-soap drops xsi:nil elements
  if (type.kind === 'scalar') {
    if (value === '') return '';
    const view = SCALAR_VIEW[type.type];
    return view ? view(typeof value === 'number' ? String(value) : (value as string)) : value;
  }
  if (type.kind === 'enum') return value; // a string restriction: the name, as sent
  if (type.kind === 'list') {
    const list = value as unknown[];
    if (list.length === 0) return null; // `<OpResult />`
    return { [type.itemElement]: list.map((v) => expectedView(v, itemType(type.item))) };
  }
  const out: Record<string, unknown> = {};
  for (const f of fieldsOfType(type.type)) {
    const v = (value as Record<string, unknown>)[f.name];
    if (v === undefined) continue;
    const view = expectedView(v, f.type);
    if (view !== undefined) out[f.name] = view;
  }
  // An element with no children (`<ListUsersResult />`: every field absent) reads as null, like an
  // empty list.
  return Object.keys(out).length === 0 ? null : out;
}

/** The result as Payframe's decoder reads the raw response: the exact values on the wire. */
function decodeRaw(op: Operation, raw: string): unknown {
  const body = childElements(readXml(raw)).find((c) => c.local === 'Body')!;
  return decodeSoapResult(body, op, s.namespace);
}

describe.each(['1.1', '1.2'] as const)('node-soap over SOAP %s', (version) => {
  for (const variant of ['full', 'edge'] satisfies Variant[]) {
    for (const op of operations) {
      it(`${op.name} (${variant})`, async () => {
        s.rec.variant = variant;
        s.rec.calls.length = 0;
        const params = sampleParams(op, variant);
        const { result, rawResponse } = await call(version, op.name, argsOf(params, op.params));
        expect(s.rec.calls.map((c) => [c.context.binding, c.params])).toEqual([
          [version === '1.1' ? 'soap11' : 'soap12', params],
        ]);
        const sample = sampleResult(op, variant);
        expect(decodeRaw(op, rawResponse)).toEqual(sample);
        const view = expectedView(sample, op.result!);
        expect(result).toEqual(view === undefined ? {} : { [`${op.name}Result`]: view });
      });
    }
  }
});

describe('node-soap details', () => {
  const history = getOperation('GetTransactionHistories');
  const params = { startDate: '2024-01-02T03:04:05', endDate: '2024-01-02T03:04:05', merchantID: '1' };

  it('writes the exact values on the wire, which node-soap rounds', async () => {
    s.rec.respond(history.name, () => [
      {
        TransactionHistoryID: '9007199254740993',
        MerchantID: '1',
        TransactionID: '2',
        TransactionAmount: '10.50',
        TransactionDate: null,
      },
    ]);
    const { result, rawResponse } = await call('1.1', history.name, params);
    expect(rawResponse).toContain('<TransactionHistoryID>9007199254740993</TransactionHistoryID>');
    expect(rawResponse).toContain('<TransactionAmount>10.50</TransactionAmount>');
    expect(rawResponse).toContain('<TransactionDate xsi:nil="true" />');
    expect(result).toEqual({
      GetTransactionHistoriesResult: {
        TransactionHistory: [
          {
            TransactionHistoryID: 9007199254740992,
            MerchantID: 1,
            TransactionID: 2,
            TransactionAmount: 10.5,
          },
        ],
      },
    });
  });

  it('gives the exact strings with a customDeserializer for long, decimal and dateTime', async () => {
    s.rec.respond(history.name, () => sampleResult(history, 'full'));
    const { result } = await call('exact', history.name, params);
    const [item] = (result as { GetTransactionHistoriesResult: { TransactionHistory: unknown[] } })
      .GetTransactionHistoriesResult.TransactionHistory;
    expect(item).toMatchObject({
      TransactionHistoryID: '9007199254740993',
      TransactionAmount: '10.50',
      TransactionDate: '2024-01-02T03:04:05',
    });
  });

  it('trims text values (the wire keeps the white space)', async () => {
    s.rec.respond('GetMerchantDetails', () => ({ MerchantId: '1', BusinessName: '  Two  spaces  ' }));
    const { result, rawResponse } = await call('1.1', 'GetMerchantDetails', {});
    expect(rawResponse).toContain('<BusinessName>  Two  spaces  </BusinessName>');
    expect(result).toEqual({ GetMerchantDetailsResult: { MerchantId: 1, BusinessName: 'Two  spaces' } });
  });

  it.each(['1.1', '1.2'] as const)('reads a fault over SOAP %s', async (version) => {
    s.rec.respond('GetMerchantInfo', () => {
      throw new PayframeError('invalid_request', 'bad thing');
    });
    const err = (await call(version, 'GetMerchantInfo', { merchantID: '42' }).catch((e: unknown) => e)) as {
      message: string;
      root: unknown;
      response: { status: number };
    };
    // node-soap's message: "faultcode: faultstring: {detail}" in 1.1, "Code: undefined: Reason:
    // {Detail}" in 1.2 (it looks for a Subcode that ASMX does not send: node-soap #1228).
    const detail = '{"ErrorCode":"invalid_request"}';
    expect(err.message).toBe(
      version === '1.1'
        ? `soap:Client: bad thing: ${detail}`
        : `soap:Sender: undefined: bad thing: ${detail}`,
    );
    expect(err.response.status).toBe(500);
    expect(JSON.stringify(err.root)).toContain('"ErrorCode":"invalid_request"');
  });
});
