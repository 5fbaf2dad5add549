import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrubCardNumbers } from './logger.ts';
import { buildTestApp, type TestApp } from '../test/kit/app.ts';
import { databaseTargets } from '../test/kit/databases.ts';

const PAN = '4242424242424242';
const AMEX = '378282246310005';
const SPACED = '4000 0000 0000 0002';

describe('scrubCardNumbers', () => {
  it('masks Luhn-valid numbers, spaced or dashed, keeping the last four', () => {
    expect(scrubCardNumbers(`card ${PAN} ok`)).toBe('card ************4242 ok');
    expect(scrubCardNumbers(`"${SPACED}"`)).toBe('"**** **** **** 0002"');
    expect(scrubCardNumbers('5555-5555-5555-4444')).toBe('****-****-****-4444');
  });

  it('finds a card number followed by more digits (a CVV typed after it)', () => {
    expect(scrubCardNumbers(`${PAN} 123`)).not.toContain(PAN);
  });

  it('masks numbers spelled with any separator, percent-encoded or JSON-escaped, as the detector reads them', () => {
    for (const [line, masked] of <Array<[string, string]>>[
      ['"url":"/pay?card=4242.4242.4242.4242"', '"url":"/pay?card=****.****.****.4242"'],
      ['"url":"/pay?card=4242%204242%204242%204242"', '"url":"/pay?card=****%20****%20****%204242"'],
      ['"url":"/pay/4242+4242+4242+4242"', '"url":"/pay/****+****+****+4242"'],
      ['"msg":"4242\\n4242\\n4242\\n4242"', '"msg":"****\\n****\\n****\\n4242"'],
      ['"name":"4242\u00a04242\u00a04242\u00a04242"', '"name":"****\u00a0****\u00a0****\u00a04242"'],
    ])
      expect(scrubCardNumbers(line)).toBe(masked);
  });

  it('leaves numbers that are not card numbers alone', () => {
    expect(scrubCardNumbers('order 1234567890123 total 10.50')).toBe('order 1234567890123 total 10.50');
    expect(scrubCardNumbers('"responseTime":1.0000000000998899')).toBe('"responseTime":1.0000000000998899');
    expect(scrubCardNumbers('"time":"2026-11-22T03:04:25.389Z"')).toBe('"time":"2026-11-22T03:04:25.389Z"');
    for (const id of ['"orderNumber":"RT-123456-123456789"', '"id":"1800000000000000003"'])
      expect(scrubCardNumbers(id)).toBe(id);
  });
});

describe('the log never holds a card number', () => {
  let t: TestApp;
  beforeAll(async () => {
    const db = await databaseTargets()[0]!.open();
    t = await buildTestApp(db, { LOG_LEVEL: 'info' }, { closeDatabase: true });
    t.app.post('/probe/:p', async (request) => {
      // A careless handler that logs everything it was given.
      const body = request.body as { name: string };
      request.log.info(
        { body: request.body, query: request.query, params: request.params },
        `paid by ${body.name}`,
      );
      request.log.error(new Error(`declined card ${PAN}`));
      return { ok: true };
    });
  });
  afterAll(() => t.close());

  it('scrubs card numbers spelled any way in the URL, the query string, the Host header and a request id', async () => {
    const before = t.logLines.length;
    const res = await t.app.inject({
      method: 'POST',
      url: `/probe/4242.4242.4242.4242?ref=${encodeURIComponent('4000\u00a00000\u00a00000\u00a00002')}&n=5555+5555+5555+4444`,
      headers: {
        'content-type': 'application/json',
        host: '3782-822463-10005.example.com',
        'x-request-id': '6011-0009-9013-9424',
      },
      payload: { name: 'Jo' },
    });
    expect(res.statusCode).toBe(200);
    const lines = t.logLines.slice(before).join('');
    expect(lines).toContain(
      '"url":"/probe/****.****.****.4242?ref=****%C2%A0****%C2%A0****%C2%A00002&n=****+****+****+4444"',
    );
    expect(lines).toContain('"host":"****-******-*0005.example.com"');
    for (const digits of [
      '4242424242424242',
      '4000000000000002',
      '5555555555554444',
      '378282246310005',
      '6011000990139424',
    ]) {
      expect(lines.replace(/[^0-9]+/g, '')).not.toContain(digits);
    }
    expect(lines).not.toContain('6011-0009-9013-9424');
    expect(lines).not.toContain('3782-822463-10005');
  });

  it('writes responseTime to the microsecond, so its digits are never read as a card number', async () => {
    const before = t.logLines.length;
    await t.app.inject({ method: 'POST', url: '/probe/x', payload: { name: 'Jo' } });
    const completed = t.logLines
      .slice(before)
      .map((l) => JSON.parse(l) as { responseTime?: number })
      .find((l) => l.responseTime !== undefined);
    expect(completed).toBeDefined();
    expect(String(completed!.responseTime)).toMatch(/^\d+(\.\d{1,3})?$/);
  });

  it('scrubs a Luhn-valid number sent in the path, query, headers, body and messages', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/probe/${PAN}?name=${AMEX}&email=x${encodeURIComponent(SPACED)}@example.com`,
      headers: {
        'content-type': 'application/json',
        authorization: `Basic ${Buffer.from(`1:${PAN}`).toString('base64')}`,
        'x-card': PAN,
        'user-agent': `agent ${PAN}`,
      },
      payload: {
        name: `Jo ${PAN}`,
        address: { line1: AMEX },
        CardNumber: PAN,
        CVV2: '123',
        metadata: [SPACED],
      },
    });
    expect(res.statusCode).toBe(200);
    const log = t.logLines.join('');
    expect(log.length).toBeGreaterThan(0);
    expect(log).toContain('4242'); // masked forms keep the last four, so the lines were written
    // Card numbers anywhere are scrubbed; a CVV is caught by its key (it cannot be told from other digits).
    expect(log).toContain('"CVV2":"[redacted]"');
    for (const secret of [PAN, AMEX, SPACED, SPACED.replaceAll(' ', ''), '"CVV2":"123"']) {
      expect(log).not.toContain(secret);
    }
    expect(log).not.toMatch(/(?<![\d.])\d{13,19}(?!\d)/);
  });
});
