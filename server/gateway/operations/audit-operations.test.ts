/**
 * ListAuditEvents (audit-operations.ts) through the real SOAP endpoint, on every database target:
 * a merchant reads its own users' events only — what they did and what was done about them — named
 * by user, newest first, filtered by action, user, outcome and time, a page at a time; another
 * merchant's events never appear, whoever asks and whatever the filter.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OperationResult } from '../../../shared/contract/service.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { TEST_CARDS } from '../processor/simulator.ts';
import {
  call,
  card,
  pay,
  rawCall,
  SERVICE_KEY,
  type TestMerchant,
} from '../../../test/kit/gateway/gateway-kit.ts';
import { ANN, openUsersWorld, type UsersWorld } from '../../../test/kit/gateway/users-world.ts';
import { recordAudit, userResource } from '../users/audit.ts';
import { totpCode } from '../users/totp.ts';
import { createUser, findUserByName } from '../users/user-store.ts';

type Page = OperationResult<'ListAuditEvents'>;
type Filter = Record<string, unknown>;

describe.each(databaseTargets())('ListAuditEvents ($name)', (target) => {
  let w: UsersWorld;
  let ann: string; // Ann's verified session token
  let sale: string;
  let afterSignIns: Date;
  const list = (filter: Filter = {}, m: TestMerchant = w.a): Promise<Page> =>
    call(w.app, 'ListAuditEvents', { filter }, m.as);
  const actions = async (filter: Filter = {}, m: TestMerchant = w.a) =>
    ((await list({ Limit: 100, ...filter }, m)).Events ?? []).map(
      (e) => `${e.Actor} ${e.Action} ${e.Outcome}`,
    );

  async function signIn(username: string): Promise<string> {
    const r = await w.login(username, ANN.password);
    expect(r.Status).toBe(true);
    const token = r.Data!;
    const setup = await call(w.app, 'BeginSecondFactorEnrolment', {}, { bearer: token });
    const verified = await call(
      w.app,
      'VerifySecondFactor',
      { code: totpCode(setup.SetupKey!, w.clock.now) },
      { bearer: token },
    );
    expect(verified.Verified).toBe(true);
    return token;
  }

  beforeAll(async () => {
    w = await openUsersWorld(target);
    await createUser(w.db, {
      merchantId: w.b.id,
      username: 'Bob.Bravo',
      password: ANN.password,
      email: null,
    });
    // What the CLI records when it makes a user (server/cli/gateway-commands.ts).
    const annId = (await findUserByName(w.db, ANN.username))!.id;
    await recordAudit(w.db, {
      actor: 'cli',
      action: 'user.created',
      resource: userResource(annId),
      outcome: 'success',
      at: w.clock.now,
    });
    expect((await w.login(ANN.username, 'a wrong password 1')).Status).toBe(false);
    // An unknown user's failed sign-in concerns no merchant.
    expect((await w.login('No.Such.User', ANN.password)).Status).toBe(false);
    w.advance(1);
    ann = await signIn(ANN.username);
    await signIn('Bob.Bravo');
    w.advance(1);
    afterSignIns = w.clock.now;
    sale = (await call(w.app, 'ProcessTransaction', pay(w.a, card(TEST_CARDS.visa, '12.00')), w.a.as))
      .TransactionID!;
    await call(
      w.app,
      'ProcessTransaction',
      pay(w.a, { TransactionType: 'refund', OriginalTransactionID: sale, Amount: '5.00' }),
      { bearer: ann },
    );
  });
  afterAll(() => w?.close());

  it("answers the merchant's users' events, newest first, named by user", async () => {
    expect(await actions()).toEqual([
      'Ann.Admin operation.ProcessTransaction Success',
      'Ann.Admin user.second_factor_enrolled Success',
      'Ann.Admin user.login Success',
      'Ann.Admin user.login Failure',
      'cli user.created Success',
    ]);
    const [refund, , , failed, created] = (await list()).Events!;
    expect(refund!.Detail).toEqual(
      expect.arrayContaining([
        { Name: 'TransactionType', Value: 'refund' },
        { Name: 'OriginalTransactionID', Value: sale },
        { Name: 'Amount', Value: '5.00' },
      ]),
    );
    expect(refund!.Origin).toBeTruthy();
    expect(refund!.Subject).toBeUndefined();
    expect(failed!.Detail).toEqual([{ Name: 'reason', Value: 'password' }]);
    expect(failed!.Subject).toBeUndefined();
    // An operator made Ann: the event is about her.
    expect(created).toMatchObject({ Actor: 'cli', Subject: 'Ann.Admin' });
    const ids = (await list()).Events!.map((e) => BigInt(e.EventID));
    expect(ids).toEqual([...ids].sort((x, y) => (x > y ? -1 : 1)));
  });

  it("never answers another merchant's events, whoever asks", async () => {
    const bravo = await actions({}, w.b);
    expect(bravo).toEqual(['Bob.Bravo user.second_factor_enrolled Success', 'Bob.Bravo user.login Success']);
    expect(await actions({ UserName: 'Bob.Bravo' })).toEqual([]);
    expect(await actions({ UserName: 'Ann.Admin' }, w.b)).toEqual([]);
    // Ann, signed in, reads her merchant's log, not Bravo's.
    const asAnn = await call(w.app, 'ListAuditEvents', { filter: { Limit: 100 } }, { bearer: ann });
    expect(asAnn.Events!.map((e) => e.Actor)).not.toContain('Bob.Bravo');
    expect(asAnn.Events!.length).toBeGreaterThanOrEqual(5);
    // Her read of the log is itself in it, as its newest event (PCI DSS 10.2.1.3).
    expect((await actions())[0]).toBe('Ann.Admin audit_log.read Success');
    // The service credential is no merchant: refused before the operation runs.
    const service = await rawCall(w.app, 'ListAuditEvents', { filter: {} }, { service: SERVICE_KEY });
    expect(service.status).toBe(401);
    expect(service.body).not.toContain('EventID');
  });

  it('filters by action prefix, user, outcome and time', async () => {
    expect(await actions({ ActionPrefix: 'operation.' })).toEqual([
      'Ann.Admin operation.ProcessTransaction Success',
    ]);
    expect(await actions({ ActionPrefix: 'user.login' })).toEqual([
      'Ann.Admin user.login Success',
      'Ann.Admin user.login Failure',
    ]);
    // A prefix is text, never a pattern.
    expect(await actions({ ActionPrefix: '%' })).toEqual([]);
    expect(await actions({ ActionPrefix: 'user_login' })).toEqual([]);
    expect(await actions({ Outcome: 'Failure' })).toEqual(['Ann.Admin user.login Failure']);
    expect(await actions({ UserName: 'ann.admin', ActionPrefix: 'user.created' })).toEqual([
      'cli user.created Success',
    ]);
    expect(await actions({ UserName: 'nobody' })).toEqual([]);
    expect(await actions({ OccurredFrom: afterSignIns.toISOString() })).toEqual([
      'Ann.Admin audit_log.read Success',
      'Ann.Admin operation.ProcessTransaction Success',
    ]);
    expect(await actions({ OccurredBefore: afterSignIns.toISOString() })).toHaveLength(4);
  });

  it('pages by the last event id', async () => {
    const all = (await list({ Limit: 100 })).Events!.map((e) => e.EventID);
    const first = await list({ Limit: 2 });
    expect(first.Events!.map((e) => e.EventID)).toEqual(all.slice(0, 2));
    expect(first.HasMore).toBe(true);
    const second = await list({ Limit: 2, StartingAfter: all[1] });
    expect(second.Events!.map((e) => e.EventID)).toEqual(all.slice(2, 4));
    const last = await list({ Limit: 2, StartingAfter: all[3] });
    expect(last.Events!.map((e) => e.EventID)).toEqual(all.slice(4));
    expect(last.HasMore).toBe(false);
    for (const Limit of [0, 101]) {
      const r = await rawCall(w.app, 'ListAuditEvents', { filter: { Limit } }, w.a.as);
      expect(r.body).toContain('invalid_request');
    }
  });
});
