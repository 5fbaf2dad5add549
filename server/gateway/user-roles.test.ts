import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_EFFECT } from '../../shared/contract/effects.ts';
import { operations } from '../../shared/contract/index.ts';
import { TEST_CARDS } from './processor/simulator.ts';
import { OPERATION_ACCESS } from './principal.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { card, pay } from '../../test/kit/gateway/gateway-kit.ts';
import { soapCall } from '../../test/kit/gateway/soap-call.ts';
import { ANN, openUsersWorld, type UsersWorld } from '../../test/kit/gateway/users-world.ts';
import { totpCode } from './users/totp.ts';
import { findUserByName } from './users/user-store.ts';
import { OPERATION_LEAST_ROLE, roleAllows, type UserRole } from './user-roles.ts';

describe('the least role of each operation', () => {
  it('names every operation, and every change a user may make needs at least Staff', () => {
    const names = operations.map((op) => op.name).sort();
    expect(Object.keys(OPERATION_LEAST_ROLE).sort()).toEqual(names);
    const viewerChanges = operations.filter(
      (op) =>
        OPERATION_EFFECT[op.name] === 'change' &&
        OPERATION_ACCESS[op.name] !== 'user' &&
        OPERATION_ACCESS[op.name] !== 'public' &&
        roleAllows('viewer', OPERATION_LEAST_ROLE[op.name]),
    );
    expect(viewerChanges.map((op) => op.name)).toEqual([]);
    // A Viewer's own session is the one exception: it signs in, verifies and signs out.
    const ownSession = operations.filter((op) => OPERATION_ACCESS[op.name] === 'user').map((op) => op.name);
    expect(ownSession.sort()).toEqual(
      ['BeginSecondFactorEnrolment', 'EndUserSession', 'GetUserSession', 'VerifySecondFactor'].sort(),
    );
    for (const name of ownSession) expect(OPERATION_LEAST_ROLE[name]).toBe('viewer');
  });

  it('ranks the roles: Owner over Admin over Staff over Viewer', () => {
    expect(roleAllows('owner', 'admin')).toBe(true);
    expect(roleAllows('admin', 'owner')).toBe(false);
    expect(roleAllows('staff', 'staff')).toBe(true);
    expect(roleAllows('staff', 'admin')).toBe(false);
    expect(roleAllows('viewer', 'staff')).toBe(false);
  });
});

describe.each(databaseTargets())('user roles enforced by the gateway on $name', (target) => {
  let w: UsersWorld;
  beforeAll(async () => {
    w = await openUsersWorld(target);
  });
  afterAll(() => w.close());

  const call = (op: string, token: string, params: Record<string, unknown> = {}) =>
    soapCall(w.app, op, params, { bearer: token });
  /** A new user of merchant a with `role`, signed in with its second factor verified. */
  async function signedIn(username: string, role?: UserRole): Promise<string> {
    await w.newUser(username, undefined, role);
    const login = await w.login(username, ANN.password);
    expect(login.Status).toBe(true);
    const token = login.Data!;
    const setup = (await call('BeginSecondFactorEnrolment', token)).result as { SetupKey: string };
    const verified = await call('VerifySecondFactor', token, { code: totpCode(setup.SetupKey, w.clock.now) });
    expect(verified.result).toMatchObject({ Verified: true });
    return token;
  }
  const sale = async (token: string) => {
    const r = await call('ProcessTransaction', token, pay(w.a, card(TEST_CARDS.visa, '20.00')));
    expect(r.status).toBe(200);
    const id = (r.result as { TransactionID?: string }).TransactionID;
    expect(id).toBeTruthy();
    return id!;
  };
  const refund = (token: string, original: string) =>
    call(
      'ProcessTransaction',
      token,
      pay(w.a, { TransactionType: 'refund', OriginalTransactionID: original }),
    );
  const refused = (r: { status: number; body: string }, role: string) => {
    expect(r.status).not.toBe(200);
    expect(r.body).toContain('forbidden');
    expect(r.body).toContain(`needs the ${role} role or higher`);
  };

  it('answers the role with the session, and a user made without one is an owner', async () => {
    const owner = await signedIn('olly.owner');
    expect((await call('GetUserSession', owner)).result).toMatchObject({ Role: 'Owner' });
    const viewer = await signedIn('vic.viewer', 'viewer');
    expect((await call('GetUserSession', viewer)).result).toMatchObject({ Role: 'Viewer' });
    expect((await findUserByName(w.db, ANN.username))?.role).toBe('owner');
  });

  it("refuses a Viewer's refund and records the refusal; a Staff refund goes through", async () => {
    const staff = await signedIn('stan.staff', 'staff');
    const viewer = await signedIn('val.viewer', 'viewer');
    const id = await sale(staff);

    refused(await refund(viewer, id), 'Staff');
    const user = await findUserByName(w.db, 'val.viewer');
    const { rows } = await w.db.query<{ action: string; outcome: string; detail: unknown }>(
      `select action, outcome, detail from audit_events where actor = $1 and action like 'operation.%'`,
      [`merchant_user:${user!.id}`],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'operation.ProcessTransaction', outcome: 'failure' });
    const detail = typeof rows[0]!.detail === 'string' ? JSON.parse(rows[0]!.detail) : rows[0]!.detail;
    expect(detail).toMatchObject({
      error: 'forbidden',
      OriginalTransactionID: id,
      TransactionType: 'refund',
    });

    const done = await refund(staff, id);
    expect(done.status).toBe(200);
    expect(done.result).toMatchObject({ ResponseCode: '00', ResponseMessage: 'Refunded' });
  });

  it('lets each role call what it may and refuses the rest', async () => {
    const viewer = await signedIn('vera.viewer', 'viewer');
    const staff = await signedIn('sid.staff', 'staff');
    const admin = await signedIn('ada.admin', 'admin');
    const link = { request: { MerchantID: w.a.id, Amount: '12.50', OrderNumber: 'R-1' } };
    const profile = { request: { MerchantID: w.a.id, CustomerID: 'C-1', ...card(TEST_CARDS.visa, '0') } };

    // Reads: every role.
    for (const token of [viewer, staff, admin]) {
      expect((await call('ListPayments', token)).status).toBe(200);
      expect((await call('GetSettlementSummary', token)).status).toBe(200);
    }
    // Payments' work: Staff and above.
    refused(await call('CreateHostedPayment', viewer, link), 'Staff');
    refused(await call('SettleTransaction', viewer, { merchantID: w.a.id }), 'Staff');
    // Card data from a reader: a read, but not a read-only user's.
    refused(
      await call('GetCardDetailsFromEncryptedData', viewer, { merchantID: w.a.id, encryptedData: 'AA' }),
      'Staff',
    );
    expect((await call('CreateHostedPayment', staff, link)).status).toBe(200);
    // The account's: Admin and above (what comes of the call past the role is not this test's).
    refused(await call('CreatePaymentProfile', staff, profile), 'Admin');
    refused(await call('CreatePaymentProfile', viewer, profile), 'Admin');
    const byAdmin = await call('CreatePaymentProfile', admin, profile);
    expect(byAdmin.body).not.toContain('role or higher');
    refused(await call('ListAuditEvents', staff), 'Admin');
    expect((await call('ListAuditEvents', admin)).status).toBe(200);
    // Every read of the audit log is itself recorded, the refused one too (PCI DSS 10.2.1.3).
    const reads = await w.db.query<{ outcome: string }>(
      `select outcome from audit_events where action = 'audit_log.read' order by id`,
    );
    expect(reads.rows.map((r) => r.outcome)).toEqual(['failure', 'success']);
    // A Viewer still has its own session: it signs out.
    expect((await call('EndUserSession', viewer)).status).toBe(200);
  });
});
