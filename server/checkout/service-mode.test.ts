/**
 * TRANSACTION_SERVICE_MODE=auto (issue 20): the service's WSDL, read once at start, tells Payframe's
 * gateway from a service that speaks only the spec; a document that is neither, or a service that
 * does not answer in time, refuses the start and says what to set.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations, specOperations } from '../../shared/contract/operations.ts';
import { ConfigError, loadConfig, roleProblems } from '../config.ts';
import { detectServiceMode, modeOfWsdl, wsdlOperationNames } from './service-mode.ts';

const wsdlOf = (names: readonly string[]) =>
  `<?xml version="1.0"?><wsdl:definitions xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/"><wsdl:portType name="P">${names
    .map((n) => `<wsdl:operation name="${n}"><wsdl:input message="tns:${n}SoapIn"/></wsdl:operation>`)
    .join('')}</wsdl:portType></wsdl:definitions>`;

describe('the service mode a WSDL tells', () => {
  it('Payframe’s full WSDL is payframe; the 21 spec operations alone are spec; anything else is neither', () => {
    expect(modeOfWsdl(wsdlOf(operations.map((o) => o.name)))).toBe('payframe');
    expect(modeOfWsdl(wsdlOf(specOperations.map((o) => o.name)))).toBe('spec');
    expect(modeOfWsdl(wsdlOf(['GetHostedPaymentDetails']))).toBeNull();
    expect(modeOfWsdl('<html>not a wsdl</html>')).toBeNull();
    // Without a prefix, and with single quotes, as other toolkits write them.
    expect(wsdlOperationNames(`<operation name='ProcessTransaction'/><operation  name="X">`)).toEqual(
      new Set(['ProcessTransaction', 'X']),
    );
  });
});

describe('detectServiceMode over HTTP', () => {
  let server: http.Server;
  let base = '';
  let answer: { status: number; body: string } = { status: 200, body: '' };
  const asked: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      asked.push(req.url ?? '');
      res.writeHead(answer.status, { 'content-type': 'text/xml' }).end(answer.body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('reads /TransactionService.asmx?WSDL once and picks the mode', async () => {
    answer = { status: 200, body: wsdlOf(specOperations.map((o) => o.name)) };
    asked.length = 0;
    expect(await detectServiceMode(base, { timeoutMs: 2000 })).toBe('spec');
    expect(asked).toEqual(['/TransactionService.asmx?WSDL']);
    answer = { status: 200, body: wsdlOf(operations.map((o) => o.name)) };
    expect(await detectServiceMode(base, { timeoutMs: 2000 })).toBe('payframe');
  });

  it('refuses a document that is no Transaction Service WSDL, at once', async () => {
    answer = { status: 200, body: '<html/>' };
    await expect(detectServiceMode(base, { timeoutMs: 2000 })).rejects.toThrow(ConfigError);
  });

  it('asks again while the service is not there, then refuses naming TRANSACTION_SERVICE_MODE', async () => {
    answer = { status: 503, body: '' };
    asked.length = 0;
    const err = await detectServiceMode(base, { timeoutMs: 500, patienceMs: 1200 }).catch((e) => e);
    expect(err).toBeInstanceOf(ConfigError);
    expect(String(err.message)).toContain('TRANSACTION_SERVICE_MODE');
    expect(asked.length).toBeGreaterThan(1);
  });
});

describe('what the checkout role needs in each mode', () => {
  const base = {
    TRANSACTION_SERVICE_URL: 'http://127.0.0.1:3000',
    CHECKOUT_SECRET: 'ab'.repeat(32),
  };
  it('Payframe’s gateway (and auto) is called as `service`: GATEWAY_SERVICE_KEY is required', () => {
    expect(roleProblems(loadConfig(base), 'checkout').join()).toContain('GATEWAY_SERVICE_KEY');
  });
  it('a spec-only service with its own credential needs no GATEWAY_SERVICE_KEY', () => {
    const none = loadConfig({ ...base, TRANSACTION_SERVICE_MODE: 'spec', TRANSACTION_SERVICE_AUTH: 'none' });
    expect(roleProblems(none, 'checkout')).toEqual([]);
    const header = loadConfig({
      ...base,
      TRANSACTION_SERVICE_MODE: 'spec',
      TRANSACTION_SERVICE_AUTH: 'header',
      TRANSACTION_SERVICE_HEADER: 'X-Api-Key: k-123',
    });
    expect(header.transactionService.auth).toEqual({ kind: 'header', name: 'X-Api-Key', value: 'k-123' });
  });
  it('basic needs its user name and password; header its header; each refusal names the variable', () => {
    expect(() => loadConfig({ ...base, TRANSACTION_SERVICE_AUTH: 'basic' })).toThrow(
      /TRANSACTION_SERVICE_USERNAME/,
    );
    expect(() => loadConfig({ ...base, TRANSACTION_SERVICE_AUTH: 'header' })).toThrow(
      /TRANSACTION_SERVICE_HEADER/,
    );
    expect(() => loadConfig({ ...base, TRANSACTION_SERVICE_HEADER: 'no colon' })).toThrow(
      /TRANSACTION_SERVICE_HEADER/,
    );
    expect(() => loadConfig({ ...base, TRANSACTION_SERVICE_MODE: 'soap' })).toThrow(
      /TRANSACTION_SERVICE_MODE/,
    );
    expect(
      loadConfig({ ...base, TRANSACTION_SERVICE_APPROVED_CODES: '00, 10 ,A' }).transactionService
        .approvedCodes,
    ).toEqual(['00', '10', 'A']);
  });
});
