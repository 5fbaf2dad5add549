/**
 * Gateway part 2 through a third-party client (issue "gateway part 2": "Scenario tests through the
 * real SOAP endpoint with python3-zeep cover each operation above, success and failure"). zeep reads
 * `?WSDL` from the listening app and calls, over SOAP 1.1 (a few over 1.2), as a merchant, as the
 * checkout server and anonymously: payment profiles, the shopper's wallet and one-time codes,
 * CreateInvoice, Login with its lock-out and ForgotPassword (zeep-part2.py, phase "main"). This side
 * then flushes the notifier, and Python reads the reset link from GET /dev/outbox and uses it with
 * POST /reset-password (phase "reset"). Reported as skipped, saying why, when python3-zeep is missing;
 * a failure on CI (test/kit/tools.ts).
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { databaseTargets } from '../../../kit/databases.ts';
import { describeWithTools, PYTHON3, python3Zeep } from '../../../kit/tools.ts';
import { type GatewayWorld, openWorld, SERVICE_KEY } from '../../../kit/gateway/gateway-kit.ts';
import { createUser } from '../../../../server/gateway/users/user-store.ts';

const SCRIPT = path.join(import.meta.dirname, 'zeep-part2.py');

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON printed by the Python side, checked by the assertions
type Json = Record<string, any>;

function runZeep(job: unknown): Promise<Json> {
  return new Promise((resolve, reject) => {
    const child = execFile(PYTHON3, [SCRIPT], (err, stdout, stderr) =>
      err ? reject(new Error(`zeep-part2.py failed: ${err.message}${stderr}`)) : resolve(JSON.parse(stdout)),
    );
    child.stdin?.end(JSON.stringify(job));
  });
}

const USER = { name: 'Ann.Admin', password: 'correct horse 42 battery', email: 'ann@alpha.example' };
const LOCKED = { name: 'Lee.Locked', password: 'lee password 1234', email: 'lee@alpha.example' };
const PANS = ['4242424242424242', '5555555555554444', '378282246310005', '4000000000000002'];
const status = (Status: boolean, Message: string) => ({ result: { Status, Message } });
const FAILED = status(false, 'Invalid user name or password.');
const NO_MATCH = status(false, 'No stored card matches this TokenGuid and contact.');
const NOT_FOUND = {
  ResultCode: 'NotFound',
  Message: 'No active payment profile of this customer has this PaymentProfileId.',
};
const fault = (errorCode: string, message: string, code = 'soap:Client') => ({
  fault: { code, message, errorCode },
});
const CHECKOUT_ONLY = fault('forbidden', 'This operation is for the checkout server only.');
const NOT_THAT_MERCHANT = fault('forbidden', 'This credential may not act on that merchant.');
const NOT_THIS_OPERATION = fault('forbidden', 'This credential may not call this operation.');

for (const target of databaseTargets()) {
  describeWithTools([python3Zeep], `part 2 through python3-zeep (${target.name})`, () => {
    let w: GatewayWorld;
    let m: Json; // phase "main"
    let r: Json; // phase "reset"
    let lockedUserId: string;

    beforeAll(async () => {
      w = await openWorld(target);
      await w.app.listen({ port: 0, host: '127.0.0.1' });
      const address = w.app.server.address();
      if (address === null || typeof address === 'string') throw new Error('not listening on a port');
      const create = (u: typeof USER) =>
        createUser(w.db, { merchantId: w.a.id, username: u.name, password: u.password, email: u.email });
      await create(USER);
      lockedUserId = (await create(LOCKED)).id;
      const wsdl = `http://127.0.0.1:${address.port}/TransactionService.asmx?WSDL`;
      const job = { wsdl, a: w.a, b: w.b, serviceKey: SERVICE_KEY, user: USER, locked: LOCKED };
      m = await runZeep({ ...job, phase: 'main' });
      await w.t.gateway.deps.notifier.flush(); // ForgotPassword sends its link after answering
      r = await runZeep({ ...job, phase: 'reset', newPassword: 'brand new secret 2024' });
    }, 120_000);
    afterAll(async () => {
      if (!w) return;
      const closing = w.close();
      w.app.server.closeAllConnections();
      await closing;
    });

    it('no answer, in any phase, holds a full card number', () => {
      const all = JSON.stringify([m, r]);
      for (const pan of PANS) expect(all).not.toContain(pan);
    });

    it('payment profiles: create, get (SOAP 1.1 and 1.2), list, update, delete; masked numbers only', () => {
      const p = m.profiles;
      const id = p.visa.result.PaymentProfileId as string;
      expect(id).toMatch(/^pp_[a-z]{24}$/);
      expect(p.amex.result).toMatchObject({ ResultCode: 'Ok', Message: 'Payment profile created.' });
      const year = new Date().getFullYear() + 2;
      const visa = {
        CustomerId: '501',
        ResultCode: 'Ok',
        Message: 'Payment profile found.',
        PaymentProfileId: id,
        CardNumber: '424242******4242',
        NameOnCard: 'Jo Doe',
        CardExpirationMonth: '07',
        CardExpirationYear: String(year),
        CardType: 'Visa',
      };
      expect(p.get).toEqual({ result: visa });
      expect(p.get12).toEqual(p.get);
      const amex = { CardNumber: '378282*****0005', CardExpirationMonth: '01', CardType: 'American Express' };
      expect(p.list.result).toEqual([visa, expect.objectContaining(amex)]);
      expect(p.list12).toEqual(p.list);
      const done = (Message: string) => ({ result: { PaymentProfileId: id, ResultCode: 'Ok', Message } });
      expect(p.update).toEqual(done('Payment profile updated.'));
      const renewed = {
        NameOnCard: 'J. Doe',
        CardExpirationMonth: '09',
        CardExpirationYear: String(year + 1),
      };
      expect(p.updated.result).toEqual({ ...visa, ...renewed });
      expect(p.delete).toEqual(done('Payment profile deleted.'));
      expect(p.listAfter.result).toEqual([expect.objectContaining(amex)]);
      expect(p.again.result.ResultCode).toBe('Ok'); // the same card again, as a new profile
      expect(p.again.result.PaymentProfileId).not.toBe(id);
      expect(p.emptyList).toEqual({ result: null }); // zeep reads an empty list as None
    });

    it('payment profiles: each failure ResultCode; another customer or merchant is NotFound', () => {
      const p = m.profiles;
      const code = (x: Json) => [x.result.ResultCode, x.result.PaymentProfileId];
      expect(code(p.duplicate)).toEqual(['Duplicate', p.visa.result.PaymentProfileId]);
      expect(code(p.updateToAmex)).toEqual(['Duplicate', p.amex.result.PaymentProfileId]);
      expect(code(p.invalidCard)).toEqual(['InvalidCard', undefined]);
      expect(code(p.negativeCard)).toEqual(['InvalidCard', undefined]);
      expect(p.expired.result).toEqual({
        ResultCode: 'Expired',
        Message: 'The card has expired: its expiry month is over.',
      });
      expect(p.updateExpired).toEqual(p.expired);
      expect(code(p.invalidExpiry)).toEqual(['InvalidExpiry', undefined]);
      const noCustomer = 'CustomerId must be a number greater than zero.';
      expect(p.noCustomer.result).toEqual({ ResultCode: 'InvalidRequest', Message: noCustomer });
      for (const x of [p.updateUnknown, p.otherMerchantDelete, p.deleteAgain])
        expect(x.result).toEqual(NOT_FOUND);
      expect(p.otherCustomer.result).toEqual({ CustomerId: '502', ...NOT_FOUND });
      for (const x of [p.otherMerchant, p.afterDelete])
        expect(x.result).toEqual({ CustomerId: '501', ...NOT_FOUND });
      expect(p.onOtherMerchantsId).toEqual(NOT_THAT_MERCHANT);
      expect(p.service).toEqual(NOT_THIS_OPERATION);
      expect(p.badList).toEqual(fault('invalid_request', 'customerID must be a number greater than zero.'));
    });

    it('UpdateToken: saves (TokenGuid in the Message), the same card again, updates; refusals', () => {
      const x = m.wallet;
      expect(x.saved).toEqual(status(true, `Saved. TokenGuid=${x.guid}`));
      expect(x.savedMc.result.Message).toMatch(/^Saved\. TokenGuid=[0-9a-f-]{36}$/); // verified first (00)
      expect(x.savedAgain).toEqual(x.saved);
      expect(x.updated).toEqual(status(true, `Updated. TokenGuid=${x.guid}`));
      const declined = 'The card was declined by the verification (05 Do not honor)';
      expect(x.declined).toEqual(status(false, `${declined}; it was not saved.`));
      expect(x.declinedUpdate).toEqual(status(false, `${declined}; nothing was changed.`));
      expect(x.byOtherMerchant).toEqual(NO_MATCH);
      expect(x.onOtherMerchantsId).toEqual(NOT_THAT_MERCHANT);
      expect(x.noContact).toEqual(
        status(false, 'Give CardEmail or PhoneNumber: the wallet is found by them.'),
      );
    });

    it('GetStoredCards (checkout server): last four only, by e-mail or phone; a merchant is refused', () => {
      const x = m.wallet;
      const card = (TokenGuid: string, last4: string, CardType: string, more: Json) => ({
        TokenGuid,
        MaskedCardNumber: `************${last4}`,
        CardType,
        ...more,
      });
      // zeep reads the appended ExpirationDate from the WSDL (issue 14 §6): 'MMYY', the latest update's.
      const yy = String((new Date().getUTCFullYear() + 3) % 100).padStart(2, '0');
      const visa = card(x.guid, '4242', 'Visa', {
        NameOnCard: 'Jo Doe',
        DisplayName: 'Main card',
        ExpirationDate: `10${yy}`,
      });
      const mcGuid = /TokenGuid=(\S+)$/.exec(x.savedMc.result.Message)![1]!;
      const mc = card(mcGuid, '4444', 'Mastercard', {
        DisplayName: 'Mastercard ending in 4444',
        ExpirationDate: '1131',
      });
      expect(x.listed.result).toEqual([mc, visa]); // newest first; the declined card is not there
      expect(x.listedByPhone.result).toEqual([visa]);
      expect((x.listedRaw as string).replace(/<TokenGuid>[^<]*<\/TokenGuid>/g, '')).not.toMatch(/\d{5,}/);
      expect(x.merchantList).toEqual(CHECKOUT_ONLY);
      expect(x.nobody).toEqual({ result: null });
      expect(x.badContact).toEqual(fault('invalid_request', 'email is not a valid e-mail address.'));
    });

    it('RemoveStoredCard (checkout server): removed once, then no longer listed nor updatable', () => {
      const x = m.wallet;
      expect(x.merchantRemove).toEqual(CHECKOUT_ONLY);
      expect(x.removed).toEqual(status(true, `Removed. TokenGuid=${x.guid}`));
      expect(x.removedAgain).toEqual(NO_MATCH);
      expect(x.listedAfter.result.map((c: Json) => c.MaskedCardNumber)).toEqual(['************4444']);
      expect(x.updateRemoved).toEqual(NO_MATCH);
    });

    it('SendVerificationCode: codes only for contacts with cards, one answer shape, checkout server only', () => {
      const c = m.wallet.codes;
      const six = expect.stringMatching(/^\d{6}$/);
      for (const known of [c.known, c.known12]) {
        expect(known.result).toEqual({ OneTimePasswordForEmail: six, OneTimePasswordForPhone: six });
      }
      expect(c.known12.result).not.toEqual(c.known.result); // fresh codes on every call
      expect(c.unknown).toEqual({ result: {} }); // both elements empty
      expect(c.mixed).toEqual({ result: { OneTimePasswordForEmail: six } });
      // The same elements in the same order: only the codes differ.
      const shape = (body: string) => body.replace(/<(\w+)>\d{6}<\/\1>/g, '<$1 />');
      expect(shape(c.knownRaw)).toBe(c.unknownRaw);
      expect(c.unknownRaw).toContain('<OneTimePasswordForPhone /><OneTimePasswordForEmail />');
      expect(c.merchant).toEqual(CHECKOUT_ONLY);
      expect(c.merchant12).toEqual({ fault: { ...CHECKOUT_ONLY.fault, code: 'soap:Sender' } });
      expect(c.anonymous).toEqual({ http: 401 });
    });

    it('CreateInvoice: valid and invalid invoices, a percentage fee; GetHostedPaymentDetails reads the total', () => {
      const v = m.invoices;
      const token = v.mix.result.InvoiceRandomNumber as string;
      expect(token).toMatch(/^cs_[A-Za-z0-9_-]{43}$/);
      const url = `${w.t.gateway.deps.publicUrl}/pay/${token}`;
      expect(v.mix.result).toEqual({
        Success: true,
        // 1005's InvoiceDate is nil (None, the schema's nillable DateTime): today, so it is paid.
        Message: `3 invoices (106.50) + convenience fee 3.20 = 109.70. Pay at ${url}. 4 invalid invoices were left out: see Errors.`,
        InvoiceRandomNumber: token,
        Errors: {
          string: [
            'Invoice 1003: InvoiceAmount must be greater than zero.',
            'Invoice 4 (no InvoiceNumber): InvoiceAmount has more than two decimals.',
            'Invoice 1001 (position 6): the same InvoiceNumber appears earlier in this request.',
            expect.stringMatching(
              /^Invoice 1007: InvoiceDate 0001-01-01 is not between 2000-01-01 and [\d-]{10}\.$/,
            ),
          ],
        },
      });
      const open = { Success: true, Message: 'Open', MerchantName: 'Alpha Outfitters' };
      expect(v.mixSession.result).toEqual({ ...open, Amount: '109.70', OrderNumber: 'INV-1001,1002,1005' });
      expect(v.mixSession12).toEqual(v.mixSession); // the checkout server, over SOAP 1.2
      const gone = { Success: false, Message: 'This checkout session does not exist.', Amount: '0.00' };
      expect(v.mixSessionForB.result).toEqual(gone);
      expect(v.twoAndHalf.result.Message).toMatch(
        /^1 invoice \(100\.01\) \+ convenience fee 2\.50 = 102\.51\. /,
      );
      expect(v.twoAndHalfSession.result).toEqual({ ...open, Amount: '102.51', OrderNumber: 'INV-2001' });
    });

    it('CreateInvoice refusals: nothing valid, a bad fee, a wrong key, another merchant, the service', () => {
      const v = m.invoices;
      expect(v.allInvalid.result).toEqual({
        Success: false,
        Message: 'No invoice is valid, so there is nothing to pay: see Errors.',
        Errors: {
          string: [
            'Invoice 3001: InvoiceAmount must be greater than zero.',
            'Invoice 3002: InvoiceAmount has more than two decimals.',
          ],
        },
      });
      const badFee =
        'ConvenienceFee must be a percentage from 0 to 100 when ConvenienceFeePercentage is true.';
      expect(v.badFee.result).toEqual({ Success: false, Message: badFee });
      const wrongKey = 'The TransactionKey in the message does not match the credential.';
      expect(v.wrongKey).toEqual(fault('forbidden', wrongKey));
      expect(v.otherMerchant).toEqual(NOT_THAT_MERCHANT);
      expect(v.service).toEqual(NOT_THIS_OPERATION);
    });

    it('Login: a session token or the profile; every failure answers the same bytes', () => {
      const u = m.users;
      const token = expect.stringMatching(/^ls_[\w-]{43}$/);
      expect(u.ok.result).toEqual({ Status: true, Message: 'Signed in.', Data: token });
      const profile = {
        userName: 'Ann.Admin',
        email: USER.email,
        merchantId: w.a.id,
        merchantName: w.a.name,
      };
      expect(JSON.parse(u.profile.result.Data)).toEqual({ token, expiresAt: expect.any(String), profile });
      for (const x of [u.wrong, u.unknown, u.empty]) expect(x).toEqual(FAILED);
      expect(u.wrongRaw).toBe(u.unknownRaw);
    });

    it('Login lock-out: 10 failures lock the user, the 11th fails with the right password', async () => {
      expect(m.users.lockOut).toEqual(Array(10).fill(FAILED));
      expect(m.users.eleventh).toEqual(FAILED);
      const { rows } = await w.db.query<{ action: string; why: string }>(
        `select action, coalesce(detail->>'reason', outcome) as why from audit_events
        where resource = $1 and action in ('user.login', 'user.locked') order by id`,
        [`merchant_user:${lockedUserId}`],
      );
      expect(rows.map((e) => `${e.action}:${e.why}`)).toEqual([
        ...Array(10).fill('user.login:password'),
        'user.locked:info',
        'user.login:locked', // the 11th, with the right password
        'user.login:success', // after the reset (which ends the lock)
        'user.login:password', // the old password
      ]);
    });

    it('ForgotPassword: the same answer for unknown and known users; a link only to the known one', () => {
      const f = m.users.forgot;
      const sent =
        'If the user name and e-mail address match a user, a password reset link has been sent to that e-mail address.';
      for (const x of [f.known, f.unknown, f.wrongEmail]) expect(x).toEqual(status(true, sent));
      expect(f.knownRaw).toBe(f.unknownRaw);
      expect(f.missing).toEqual(status(false, 'Give both your user name and your e-mail address.'));
      const link = { channel: 'email', to: LOCKED.email, subject: 'Reset your Payframe password' };
      expect(r.messages).toEqual([{ ...link, purpose: 'password_reset' }]);
      expect(r.notSentTo).toEqual({ 'nobody@example.com': 0, 'not.ann@example.com': 0 });
    });

    it('the reset link works once; a weak password does not use it up; the new password signs in', () => {
      expect(r.token).toMatch(/^pr_[\w-]{43}$/);
      expect(r.weak).toMatchObject({ status: 400, body: { error: { code: 'validation_failed' } } });
      expect(r.weak.body.error.fields).toEqual([expect.objectContaining({ field: 'password' })]);
      expect(r.reset).toEqual({
        status: 200,
        body: { status: 'password_changed', message: expect.any(String) },
      });
      expect(r.again).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
      expect(r.again.body.error.message).toMatch(/^This password reset link has already been used\./);
      expect(r.loginNew.result).toMatchObject({ Status: true, Message: 'Signed in.' });
      expect(r.loginOld).toEqual(FAILED);
    });
  });
}
