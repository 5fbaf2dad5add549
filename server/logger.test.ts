import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrubCardNumbers } from './logger.ts';
import { buildTestApp, type TestApp } from './testing/app.ts';
import { databaseTargets } from './testing/databases.ts';

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

  it('leaves numbers that are not card numbers alone', () => {
    expect(scrubCardNumbers('order 1234567890123 total 10.50')).toBe('order 1234567890123 total 10.50');
    expect(scrubCardNumbers('"responseTime":1.0000000000998899')).toBe('"responseTime":1.0000000000998899');
    expect(scrubCardNumbers('"time":"2026-11-22T03:04:25.389Z"')).toBe('"time":"2026-11-22T03:04:25.389Z"');
  });
});

describe('the log never holds a card number', () => {
  let t: TestApp;
  beforeAll(async () => {
    const db = await databaseTargets()[0]!.open();
    t = await buildTestApp(db, {}, { closeDatabase: true });
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
