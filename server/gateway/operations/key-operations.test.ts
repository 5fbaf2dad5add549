/**
 * RollTransactionKey and GetTransactionKeyStatus (key-operations.ts) through the real SOAP endpoint
 * on every database target, with the gateway's clock moved by the test: the old key authenticates
 * during the overlap (also from the authentication cache) and is refused after it; a roll during an
 * overlap ends the older key at once; SignForMerchant answers both signatures during an overlap
 * only; only an Owner rolls or reads the status (the server answers 403 to the rest); the roll is
 * audited as operation.RollTransactionKey without the key; no read answers a key to a user, nor the
 * new key to a caller that may hold the old one.
 */
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../../shared/contract/service.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import type { CallContext } from '../port.ts';
import { call, rawCall } from '../../../test/kit/gateway/gateway-kit.ts';
import { soapCall } from '../../../test/kit/gateway/soap-call.ts';
import { ANN, openUsersWorld, type UsersWorld } from '../../../test/kit/gateway/users-world.ts';
import { totpCode } from '../users/totp.ts';
import type { UserRole } from '../user-roles.ts';
import { rollTransactionKey } from './key-operations.ts';
import { signForMerchant } from './sign-operations.ts';

type Roll = OperationResult<'RollTransactionKey'>;
type Status = OperationResult<'GetTransactionKeyStatus'>;
const hmac = (key: string, text: string) =>
  crypto.createHmac('sha256', key).update(text, 'utf8').digest('hex');
let nextIp = 1;
const freshIp = () => `10.88.${Math.floor(nextIp / 250)}.${(nextIp++ % 250) + 1}`;

describe.each(databaseTargets())('the TransactionKey roll ($name)', (target) => {
  let w: UsersWorld;
  let owner: string;
  /** The key merchant a holds now (each test leaves the latest here). */
  let current: string;

  const asKey = (key: string) => ({ merchantId: w.a.id, key });
  /** GetMerchantInfo with this key, from a fresh address: its HTTP status. */
  const works = async (key: string) =>
    (await rawCall(w.app, 'GetMerchantInfo', { merchantID: w.a.id }, asKey(key), freshIp())).status;
  const roll = async (overlap: string, token = owner): Promise<Roll> =>
    (await call(w.app, 'RollTransactionKey', { overlap }, { bearer: token })) as Roll;
  const status = async (): Promise<Status> => call(w.app, 'GetTransactionKeyStatus', {}, { bearer: owner });
  let owners = 0;
  /** A new Owner's session: the clock moves past a session's idle end in these tests. */
  const freshOwner = async () => {
    owner = await signedIn(`olly.owner${++owners}`, 'owner');
  };

  async function signedIn(username: string, role?: UserRole): Promise<string> {
    await w.newUser(username, undefined, role);
    const login = await w.login(username, ANN.password);
    expect(login.Status).toBe(true);
    const token = login.Data!;
    const setup = (await soapCall(w.app, 'BeginSecondFactorEnrolment', {}, { bearer: token })).result as {
      SetupKey: string;
    };
    const verified = await soapCall(
      w.app,
      'VerifySecondFactor',
      { code: totpCode(setup.SetupKey, w.clock.now) },
      { bearer: token },
    );
    expect(verified.result).toMatchObject({ Verified: true });
    return token;
  }

  beforeAll(async () => {
    w = await openUsersWorld(target);
    await freshOwner();
    current = w.a.key;
  });
  afterAll(() => w.close());

  it('answers a new key once; the old one works during the overlap, from the cache too, and stops after it', async () => {
    const old = current;
    // Authenticated once, so the cache holds the old key's credential.
    expect(await works(old)).toBe(200);
    expect(await works(old)).toBe(200);
    const r = await roll('OneHour');
    expect(r.Success).toBe(true);
    expect(r.TransactionKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.TransactionKey).not.toBe(old);
    expect(new Date(r.PreviousKeyValidUntil!).getTime()).toBe(w.clock.now.getTime() + 60 * 60_000);
    const made = r.TransactionKey!;
    expect(await works(made)).toBe(200);
    expect(await works(old)).toBe(200);
    // From the cache (the same address twice, the second without a database read) as well.
    const ip = freshIp();
    expect((await rawCall(w.app, 'GetMerchantInfo', { merchantID: w.a.id }, asKey(old), ip)).status).toBe(
      200,
    );
    w.advance(59);
    expect((await rawCall(w.app, 'GetMerchantInfo', { merchantID: w.a.id }, asKey(old), ip)).status).toBe(
      200,
    );
    w.advance(1);
    // The overlap's end: the cached credential is forgotten, the database refuses it.
    expect((await rawCall(w.app, 'GetMerchantInfo', { merchantID: w.a.id }, asKey(old), ip)).status).toBe(
      401,
    );
    expect(await works(old)).toBe(401);
    expect(await works(made)).toBe(200);
    current = made;
  });

  it('a roll during an overlap ends the older key at once; a roll with None ends both old keys', async () => {
    await freshOwner();
    const first = current;
    const second = (await roll('TwentyFourHours')).TransactionKey!;
    expect(await works(first)).toBe(200);
    const third = (await roll('OneHour')).TransactionKey!;
    // The key the earlier roll kept stops; the key just replaced works for the new overlap.
    expect(await works(first)).toBe(401);
    expect(await works(second)).toBe(200);
    expect(await works(third)).toBe(200);
    const fourth = (await roll('None')).TransactionKey!;
    expect(await works(second)).toBe(401);
    expect(await works(third)).toBe(401);
    expect(await works(fourth)).toBe(200);
    expect((await status()).PreviousKeyValidUntil).toBeUndefined();
    current = fourth;
  });

  it('SignForMerchant answers both signatures during an overlap, the new key first, and one after it', async () => {
    await freshOwner();
    const old = current;
    const made = (await roll('OneHour')).TransactionKey!;
    // The checkout's own call, in process (this world's app has no service key to call it over SOAP).
    const sign = () =>
      signForMerchant(
        { merchantID: w.a.id, message: 'status=succeeded' },
        { principal: { kind: 'service' }, context: {} as CallContext, clientAddress: '127.0.0.1' },
        w.deps,
      );
    const during = await sign();
    expect(during.Signature).toBe(hmac(made, 'status=succeeded'));
    expect(during.PreviousKeySignature).toBe(hmac(old, 'status=succeeded'));
    w.advance(61);
    const after = await sign();
    expect(after.Signature).toBe(hmac(made, 'status=succeeded'));
    expect(after.PreviousKeySignature).toBeUndefined();
    current = made;
  });

  it("shows each key's last use and the overlap's end, never a key", async () => {
    await freshOwner();
    const old = current;
    const made = (await roll('OneHour')).TransactionKey!;
    let s = await status();
    expect(s.MerchantID).toBe(w.a.id);
    expect(s.KeyLastUsedAt).toBeUndefined();
    // An xsd:dateTime as the service writes it: its fraction without trailing zeros (.91, not .910),
    // so compared as instants.
    const at = (text?: string | null) => (text ? new Date(text).getTime() : text);
    expect(at(s.PreviousKeyValidUntil)).toBe(w.clock.now.getTime() + 60 * 60_000);
    const usedAt = w.clock.now.getTime();
    expect(await works(old)).toBe(200);
    w.advance(2);
    const newUsedAt = w.clock.now.getTime();
    expect(await works(made)).toBe(200);
    expect(await works(made)).toBe(200);
    const raw = await soapCall(w.app, 'GetTransactionKeyStatus', {}, { bearer: owner });
    s = raw.result as Status;
    expect(at(s.PreviousKeyLastUsedAt)).toBe(usedAt);
    expect(at(s.KeyLastUsedAt)).toBe(newUsedAt);
    expect(raw.body).not.toContain(made);
    expect(raw.body).not.toContain(old);
    // The uses were written once per key, not once per call.
    const { rows } = await w.db.query<{ n: string }>(
      'select count(*) as n from transaction_key_uses where merchant_id = $1',
      [w.a.id],
    );
    expect(Number(rows[0]!.n)).toBe(2);
    current = made;
  });

  it('answers no key to a dashboard user, nor the new key to a caller during the overlap', async () => {
    await freshOwner();
    const info = (await call(w.app, 'GetMerchantInfo', { merchantID: w.a.id }, { bearer: owner })) as {
      TransactionKey?: string;
    };
    expect(info.TransactionKey).toBeUndefined();
    const details = await call(w.app, 'GetMerchantDetails', { merchantId: w.a.id }, { bearer: owner });
    expect(details.TransactionKey).toBeUndefined();
    // current rolled with an overlap in the last test: the overlap still runs.
    const during = await call(w.app, 'GetMerchantInfo', { merchantID: w.a.id }, asKey(current));
    expect(during.TransactionKey).toBeUndefined();
    w.advance(61);
    const after = await call(w.app, 'GetMerchantInfo', { merchantID: w.a.id }, asKey(current));
    expect(after.TransactionKey).toBe(current);
  });

  it('refuses a roll and the status to Admin, Staff and Viewer (403), and records the refusals', async () => {
    for (const [name, role] of [
      ['ada.admin', 'admin'],
      ['sam.staff', 'staff'],
      ['vi.viewer', 'viewer'],
    ] as const) {
      const token = await signedIn(name, role);
      // The forbidden fault (the dashboard's API answers it 403: developer-keys.test.ts).
      const r = await rawCall(w.app, 'RollTransactionKey', { overlap: 'None' }, { bearer: token });
      expect(r.status).not.toBe(200);
      expect(r.body).toContain('forbidden');
      expect(r.body).toContain('needs the Owner role or higher');
      const s = await rawCall(w.app, 'GetTransactionKeyStatus', {}, { bearer: token });
      expect(s.body).toContain('needs the Owner role or higher');
    }
    // Nothing changed: the key works.
    expect(await works(current)).toBe(200);
    const { rows } = await w.db.query<{ n: string }>(
      `select count(*) as n from audit_events where action = 'operation.RollTransactionKey' and outcome = 'failure'`,
    );
    expect(Number(rows[0]!.n)).toBe(3);
  });

  it('audits the roll as operation.RollTransactionKey, without the key, and never logs it', async () => {
    await freshOwner();
    const made = (await roll('None')).TransactionKey!;
    const { rows } = await w.db.query<{ outcome: string; detail: unknown; actor: string }>(
      `select outcome, detail, actor from audit_events where action = 'operation.RollTransactionKey'
       and outcome = 'success' order by id`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(5);
    const text = JSON.stringify(rows);
    for (const key of [made, current, w.a.key]) {
      expect(text).not.toContain(key);
      expect(w.t.logLines.join('\n')).not.toContain(key);
    }
    const detail = typeof rows[0]!.detail === 'string' ? JSON.parse(rows[0]!.detail) : rows[0]!.detail;
    expect(detail).toEqual({ Success: true });
    current = made;
  });

  it("refuses a roll by the merchant's own TransactionKey (forbidden), and the key stays", async () => {
    const r = await rawCall(w.app, 'RollTransactionKey', { overlap: 'None' }, asKey(current), freshIp());
    expect(r.status).not.toBe(200);
    expect(r.body).toContain('forbidden');
    const s = await rawCall(w.app, 'GetTransactionKeyStatus', {}, asKey(current), freshIp());
    expect(s.body).toContain('forbidden');
    expect(await works(current)).toBe(200);
  });

  it('refuses a roll by the service credential', async () => {
    await expect(
      rollTransactionKey(
        { overlap: 'None' },
        { principal: { kind: 'service' }, context: {} as CallContext, clientAddress: '127.0.0.1' },
        w.deps,
      ),
    ).rejects.toMatchObject({ code: 'forbidden' });
    expect(await works(current)).toBe(200);
  });
});
