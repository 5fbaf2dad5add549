/**
 * The HTTP GET binding serves reads only (issue 13 §8; shared/contract/effects.ts): an operation
 * that changes state (CancelHostedPayment, SendVerificationCode, RemoveStoredCard) answers 405 with
 * `Allow: POST` over GET and changes nothing — a link, an image tag, a prefetch or a crawler cannot
 * cancel a session. HTTP POST still calls it; `SOAP_HTTP_GET_CHANGES=true` gives ASMX's behaviour
 * back. The WSDL and the help page say the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type GatewayWorld, openWorld, SERVICE_KEY } from '../../test/kit/gateway/gateway-kit.ts';
import { basic } from '../../test/kit/gateway/soap-call.ts';
import { databaseTargets } from '../../test/kit/databases.ts';

const PATH = '/TransactionService.asmx';

describe.each(databaseTargets())('HTTP GET serves reads only ($name)', (target) => {
  for (const [flag, getChanges] of [
    ['default', false],
    ['SOAP_HTTP_GET_CHANGES=true', true],
  ] as const) {
    describe(flag, () => {
      let w: GatewayWorld;
      beforeAll(async () => {
        w = await openWorld(target, getChanges ? { SOAP_HTTP_GET_CHANGES: 'true' } : {});
      });
      afterAll(() => w?.close());

      async function newSession(): Promise<string> {
        const created = await call(
          w.app,
          'CreateHostedPayment',
          { request: { MerchantID: w.a.id, Amount: '12.00' } },
          w.a.as,
        );
        return created.Token!;
      }

      async function status(token: string): Promise<string> {
        const { rows } = await w.db.query<{ status: string }>(
          'select status from checkout_sessions where token = $1',
          [token],
        );
        return rows[0]!.status;
      }

      if (!getChanges) {
        it('CancelHostedPayment over GET is 405 with Allow: POST, and the session stays open', async () => {
          const token = await newSession();
          const res = await w.app.inject({
            method: 'GET',
            url: `${PATH}/CancelHostedPayment?token=${token}`,
            headers: basic(w.a.as),
          });
          expect(res.statusCode).toBe(405);
          expect(res.headers.allow).toBe('POST');
          expect(await status(token)).toBe('open');
          // Over POST the same call cancels it.
          const posted = await w.app.inject({
            method: 'POST',
            url: `${PATH}/CancelHostedPayment`,
            headers: { ...basic(w.a.as), 'content-type': 'application/x-www-form-urlencoded' },
            payload: `token=${token}`,
          });
          expect(posted.statusCode).toBe(200);
          expect(await status(token)).toBe('canceled');
        });

        it.each([
          ['SendVerificationCode', 'email=ada%40example.com&phoneNumber='],
          ['RemoveStoredCard', 'email=ada%40example.com&phoneNumber=&tokenGuid=x'],
        ])('%s over GET is 405, whoever calls, and reaches no handler', async (op, query) => {
          const before = await w.db.query<{ n: string }>('select count(*) as n from wallet_cards');
          for (const headers of [{}, basic({ service: SERVICE_KEY })]) {
            const res = await w.app.inject({ method: 'GET', url: `${PATH}/${op}?${query}`, headers });
            expect(res.statusCode).toBe(405);
            expect(res.headers.allow).toBe('POST');
          }
          const after = await w.db.query<{ n: string }>('select count(*) as n from wallet_cards');
          expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
        });

        it('the WSDL and the help page offer GET for reads only', async () => {
          const wsdl = (await w.app.inject(`${PATH}?WSDL`)).body;
          expect(wsdl).toContain('name="GetMerchantInfoHttpGetIn"');
          expect(wsdl).toContain('name="CancelHostedPaymentHttpPostIn"');
          expect(wsdl).not.toContain('name="CancelHostedPaymentHttpGetIn"');
          const help = (await w.app.inject(`${PATH}?op=CancelHostedPayment`)).body;
          expect(help).toContain('<h3>HTTP POST</h3>');
          expect(help).not.toContain('<h3>HTTP GET</h3>');
        });
      } else {
        it('with SOAP_HTTP_GET_CHANGES=true, CancelHostedPayment over GET cancels, as ASMX would', async () => {
          const token = await newSession();
          const res = await w.app.inject({
            method: 'GET',
            url: `${PATH}/CancelHostedPayment?token=${token}`,
            headers: basic(w.a.as),
          });
          expect(res.statusCode).toBe(200);
          expect(await status(token)).toBe('canceled');
          const wsdl = (await w.app.inject(`${PATH}?WSDL`)).body;
          expect(wsdl).toContain('name="CancelHostedPaymentHttpGetIn"');
        });
      }

      it('reads stay on GET', async () => {
        const res = await w.app.inject({
          method: 'GET',
          url: `${PATH}/GetMerchantInfo?merchantID=${w.a.id}`,
          headers: basic(w.a.as),
        });
        expect(res.statusCode).toBe(200);
        expect(res.body).toContain(`<MerchantID>${w.a.id}</MerchantID>`);
      });
    });
  }
});
