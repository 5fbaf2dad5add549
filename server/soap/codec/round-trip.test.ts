/** For every type and every operation of the contract: encode → decode gives the same value back. */
import { describe, expect, it } from 'vitest';
import { complexTypes, operations } from '../../../shared/contract/index.ts';
import { SOAP11_NS, SOAP12_NS } from '../soap-fault.ts';
import { openEnvelope } from '../soap-request.ts';
import {
  sampleComplex,
  sampleParams,
  sampleResult,
  type Variant,
} from '../../../test/kit/soap/sample-values.ts';
import { childElements, readXml } from '../xml/index.ts';
import { decodeComplex } from './decode.ts';
import { type Writer, writeValue } from './encode.ts';
import {
  decodeSoapParams,
  decodeSoapResult,
  encodeHttpResponse,
  encodeSoapRequest,
  encodeSoapResponse,
} from './messages.ts';

const NS = 'http://payframe.test/ns/';
const variants: Variant[] = ['full', 'edge'];

describe('round trip of every complex type', () => {
  for (const type of complexTypes) {
    for (const variant of variants) {
      it(`${type.name} (${variant})`, () => {
        const value = sampleComplex(type.name, variant);
        const w: Writer = { out: [], indent: undefined };
        writeValue(w, 'Probe', { kind: 'complex', type: type.name }, value, 0, 'Probe');
        const xml = `<Root xmlns="${NS}" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">${w.out.join('')}</Root>`;
        const probe = childElements(readXml(xml))[0]!;
        expect(decodeComplex(probe, type.name, NS, 'Probe')).toEqual(value);
      });
    }
  }
});

describe('round trip of every operation over SOAP', () => {
  for (const op of operations) {
    for (const version of ['1.1', '1.2'] as const) {
      for (const variant of variants) {
        it(`${op.name} SOAP ${version} (${variant})`, () => {
          const params = sampleParams(op, variant);
          const request = readXml(encodeSoapRequest(op, params, NS, version));
          expect(request.ns).toBe(version === '1.1' ? SOAP11_NS : SOAP12_NS);
          const wrapper = childElements(openEnvelope(request).body)[0];
          expect(decodeSoapParams(wrapper, op, NS)).toEqual(params);

          const result = sampleResult(op, variant);
          const response = readXml(encodeSoapResponse(op, result, NS, version));
          expect(decodeSoapResult(openEnvelope(response).body, op, NS)).toEqual(result);
        });
      }
    }
  }
});

describe('encoding details', () => {
  const history = operations.find((o) => o.name === 'GetTransactionHistories')!;
  const verify = operations.find((o) => o.name === 'Verify3DSecureMerchant')!;

  it('writes nil dateTimes, keeps decimal scale and longs above 2^53', () => {
    const xml = encodeSoapResponse(
      history,
      [
        {
          TransactionHistoryID: '9007199254740993',
          MerchantID: '1',
          TransactionID: '2',
          TransactionAmount: '10.50',
          TransactionDate: null,
        },
      ],
      NS,
      '1.1',
    );
    expect(xml).toContain('<TransactionHistoryID>9007199254740993</TransactionHistoryID>');
    expect(xml).toContain('<TransactionAmount>10.50</TransactionAmount>');
    expect(xml).toContain('<TransactionDate xsi:nil="true" />');
  });

  it('writes an empty list result as an empty element', () => {
    expect(encodeSoapResponse(history, [], NS, '1.2')).toContain('<GetTransactionHistoriesResult />');
  });

  it('writes HTTP GET/POST documents indented, rooted at the return type', () => {
    expect(encodeHttpResponse(verify, true, NS)).toBe(
      `<?xml version="1.0" encoding="utf-8"?>\n<boolean xmlns="${NS}">true</boolean>`,
    );
    const doc = encodeHttpResponse(
      history,
      [
        {
          TransactionHistoryID: '1',
          MerchantID: '2',
          TransactionID: '3',
          TransactionAmount: '1.00',
          TransactionDate: null,
        },
      ],
      NS,
    );
    expect(doc).toBe(
      [
        '<?xml version="1.0" encoding="utf-8"?>',
        `<ArrayOfTransactionHistory xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns="${NS}">`,
        '  <TransactionHistory>',
        '    <TransactionHistoryID>1</TransactionHistoryID>',
        '    <MerchantID>2</MerchantID>',
        '    <TransactionID>3</TransactionID>',
        '    <TransactionAmount>1.00</TransactionAmount>',
        '    <TransactionDate xsi:nil="true" />',
        '  </TransactionHistory>',
        '</ArrayOfTransactionHistory>',
      ].join('\n'),
    );
  });

  it('refuses to make up a required value the handler did not give', () => {
    expect(() => encodeSoapResponse(verify, undefined, NS, '1.1')).toThrow(/required|Boolean|value/i);
  });
});
