/**
 * Conformance with python3-zeep 4.2.1 (DESIGN.md "How it is tested"): zeep loads `?WSDL` from the
 * real server and calls every operation over SOAP 1.1 and SOAP 1.2, and a few over HTTP GET and
 * POST; all calls run in one Python process (`zeep-client.py`). Checked both ways: the handler
 * receives exactly the contract's sample parameters and zeep reads exactly the sample result, as
 * typed Python values (Decimal keeps `10.50`, a long above 2^53 stays exact, nil dateTime → None).
 *
 * zeep quirks, applied to the expected values only (README.md):
 *  - dateTime is a Python datetime (isodate): 7 fraction digits are rounded to microseconds both
 *    ways, and a UTC value reads back as `+00:00` (`datetime.isoformat()`), sent as `Z`.
 *  - An empty element (`<Message />`, the empty string) reads as None, like an absent one; so does
 *    xsi:nil. zeep-client.py drops None for non-nillable elements, so an empty string reads as absent.
 *    (Sent, '' is written as an empty element and arrives as ''.) An empty list (`<Errors />`,
 *    `<OpResult />`) reads as None too: absent inside a type, null as a whole result.
 *  - Over HTTP GET/POST a 500 text/plain answer becomes a Fault whose message is the body, with no code.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { getOperation, type Operation, operations } from '../../../shared/contract/index.ts';
import { PayframeError } from '../../../server/errors.ts';
import { describeWithTools, PYTHON3, python3Zeep } from '../../kit/tools.ts';
import { sampleParams, sampleResult, type Variant } from '../../kit/soap/sample-values.ts';
import {
  allOf,
  mapFields,
  mapScalars,
  OMIT,
  onType,
  pythonIsoformat,
  sentFromPython,
} from '../../kit/soap/contract-values.ts';
import { type ServedService, serveRecordingService } from '../../kit/soap/serve.ts';

const SCRIPT = path.join(import.meta.dirname, 'zeep-client.py');

type Binding = 'soap11' | 'soap12' | 'httpGet' | 'httpPost';

interface Case {
  name: string;
  op: Operation;
  binding: Binding;
  params: Record<string, unknown>;
  /** What the handler does; the default answers the sample result. */
  answer: () => unknown;
}

interface ZeepOutcome {
  result?: unknown;
  fault?: { code: string; message: string; subcodes: string[]; errorCode: string | null };
  error?: { type: string; message: string };
}

const cases: Case[] = [];
const add = (c: Case): Case => {
  cases.push(c);
  return c;
};

for (const variant of ['full', 'edge'] satisfies Variant[]) {
  for (const binding of ['soap11', 'soap12'] as const) {
    for (const op of operations) {
      const answer = () => sampleResult(op, variant);
      add({
        name: `${op.name} ${binding} (${variant})`,
        op,
        binding,
        params: sampleParams(op, variant),
        answer,
      });
    }
  }
}
const httpCalls = [
  ['GetTransactionHistories', 'httpGet'],
  ['GetMerchantDetails', 'httpGet'],
  ['Verify3DSecureMerchant', 'httpPost'],
  ['GetCustomerPaymentProfileList', 'httpPost'],
] as const;
for (const [name, binding] of httpCalls) {
  const op = getOperation(name);
  add({
    name: `${name} ${binding}`,
    op,
    binding,
    params: sampleParams(op, 'full'),
    answer: () => sampleResult(op, 'full'),
  });
}
// Values the samples do not combine: a nil dateTime both ways, the largest long, a negative decimal.
const history = getOperation('GetTransactionHistories');
const nilHistory = add({
  name: 'nil dateTime and extreme numbers, soap11',
  op: history,
  binding: 'soap11',
  params: {
    startDate: '2024-01-02T03:04:05.5+05:30',
    endDate: '2024-12-31T23:59:59Z',
    merchantID: '9223372036854775807',
  },
  answer: () => [
    {
      TransactionHistoryID: '9223372036854775807',
      MerchantID: '-1',
      TransactionID: '0',
      TransactionAmount: '-0.10',
      TransactionDate: null,
    },
  ],
});
const invoice = getOperation('CreateInvoice');
const nilInvoice = add({
  name: 'nil dateTime in a request list, soap12',
  op: invoice,
  binding: 'soap12',
  params: {
    invoiceRequest: {
      MerchantID: '1',
      ConvenienceFee: '2.500',
      ConvenienceFeePercentage: false,
      Invoices: [{ InvoiceAmount: '10.50', InvoiceDate: null }],
    },
  },
  answer: () => ({ Success: true, Errors: [] }),
});

const faultCases = (['soap11', 'soap12', 'httpGet'] as const).map((binding) =>
  add({
    name: `fault ${binding}`,
    op: getOperation('GetMerchantInfo'),
    binding,
    params: { merchantID: '42' },
    answer: () => {
      throw new PayframeError('invalid_request', 'bad thing');
    },
  }),
);

/** Runs zeep-client.py on the job; async, since the server answering it runs in this process. */
function runZeep(job: unknown): Promise<ZeepOutcome[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON3, [SCRIPT], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`zeep-client.py exited with ${code}: ${err}`));
      resolve((JSON.parse(out) as { results: ZeepOutcome[] }).results);
    });
    child.stdin.end(JSON.stringify(job));
  });
}

describeWithTools([python3Zeep], 'python3-zeep', () => {
  let s: ServedService;
  let outcomes: ZeepOutcome[];
  const received = new Map<string, Record<string, unknown>>();

  beforeAll(async () => {
    s = await serveRecordingService();
    for (const op of operations) {
      s.rec.respond(op.name, () => {
        // The call being served is the one just recorded; its X-Request-Id names the case.
        const call = s.rec.calls.at(-1)!;
        received.set(call.context.requestId, call.params);
        return cases[Number(call.context.requestId.slice('case-'.length))]!.answer();
      });
    }
    const calls = cases.map((c, i) => ({
      op: c.op.name,
      binding: c.binding,
      params: c.params,
      requestId: `case-${i}`,
    }));
    outcomes = await runZeep({ wsdl: s.wsdlUrl, calls });
  }, 60_000);
  afterAll(() => s?.close());

  const outcome = (c: Case) => outcomes[cases.indexOf(c)]!;
  const paramsReceived = (c: Case) => received.get(`case-${cases.indexOf(c)}`);

  for (const c of cases.filter((c) => !faultCases.includes(c) && c !== nilHistory)) {
    it(c.name, () => {
      const { result, error, fault } = outcome(c);
      expect({ error, fault }).toEqual({ error: undefined, fault: undefined });
      const http = c.binding === 'httpGet' || c.binding === 'httpPost';
      // Over HTTP GET/POST every parameter is text, which zeep sends as given.
      const sent = http ? c.params : mapFields(c.params, c.op.params, onType('dateTime', sentFromPython));
      expect(paramsReceived(c)).toEqual(sent);
      const read = allOf(
        onType('dateTime', pythonIsoformat),
        onType('string', (v) => (v === '' ? OMIT : v)),
      );
      const expected = mapScalars(c.answer(), c.op.result!, read, { emptyList: OMIT });
      // A result element with no children (`<ListUsersResult />`: every field absent) reads as None.
      const none = expected === OMIT || (c.op.result!.kind === 'complex' && isEmptyObject(c.answer()));
      expect(result).toEqual(none ? null : expected);
    });
  }

  it('keeps exact values both ways: scale, 64-bit longs, offsets, nil', () => {
    expect(paramsReceived(nilHistory)).toEqual({
      startDate: '2024-01-02T03:04:05.5+05:30',
      endDate: '2024-12-31T23:59:59Z',
      merchantID: '9223372036854775807',
    });
    expect(outcome(nilHistory).result).toEqual([
      {
        TransactionHistoryID: '9223372036854775807',
        MerchantID: '-1',
        TransactionID: '0',
        TransactionAmount: '-0.10',
        TransactionDate: null,
      },
    ]);
    expect(paramsReceived(nilInvoice)).toEqual(nilInvoice.params);
    const full = cases.find((c) => c.name === 'GetTransactionHistories soap12 (full)')!;
    expect(outcome(full).result).toMatchObject([
      { TransactionID: '9007199254740993', TransactionAmount: '10.50' },
      {},
    ]);
  });

  it.each(faultCases.map((c) => [c.binding, c] as const))(
    'reports a catalogue error as a fault (%s)',
    (_b, c) => {
      const expected = {
        soap11: { code: 'soap:Client', message: 'bad thing', subcodes: [], errorCode: 'invalid_request' },
        soap12: { code: 'soap:Sender', message: 'bad thing', subcodes: [], errorCode: 'invalid_request' },
        // HTTP GET/POST errors are 500 text/plain (asmx-compatibility.md §1.5): zeep's Fault holds the body.
        httpGet: { code: null, message: 'bad thing\n', subcodes: [], errorCode: null },
      };
      expect(outcome(c)).toEqual({ fault: expected[c.binding as keyof typeof expected] });
    },
  );
});

function isEmptyObject(v: unknown): boolean {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && Object.keys(v).length === 0;
}
