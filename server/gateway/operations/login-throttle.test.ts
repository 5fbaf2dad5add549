/** One address cannot try passwords on many users: failed Logins per address are throttled too. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { type GatewayWorld, openWorld } from '../../../test/kit/gateway/gateway-kit.ts';
import { soapCall } from '../../../test/kit/gateway/soap-call.ts';
import { LOGIN_FAILURES_PER_ADDRESS } from './user-operations.ts';

describe('Login throttling per address', () => {
  let w: GatewayWorld;
  beforeAll(async () => {
    w = await openWorld(databaseTargets()[0]!);
  });
  afterAll(() => w.close());

  it(
    `answers 429 after ${LOGIN_FAILURES_PER_ADDRESS} failed Logins from one address`,
    {
      timeout: 120_000,
    },
    async () => {
      for (let i = 0; i < LOGIN_FAILURES_PER_ADDRESS; i++) {
        const r = await soapCall(
          w.app,
          'Login',
          { loginRequest: { UserName: `user${i}`, Password: 'not-the-password-1', ProfileInfo: false } },
          null,
        );
        expect(r.status).toBe(200);
        expect((r.result as { Status: boolean }).Status).toBe(false);
      }
      const refused = await w.app.inject({
        method: 'POST',
        url: '/TransactionService.asmx',
        headers: { 'content-type': 'text/xml; charset=utf-8', soapaction: '"http://tempuri.org/Login"' },
        payload:
          '<soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body><Login xmlns="http://tempuri.org/"><loginRequest><UserName>x</UserName><Password>y</Password><ProfileInfo>false</ProfileInfo></loginRequest></Login></soap:Body></soap:Envelope>',
      });
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    },
  );
});
