import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operations } from '../../../shared/contract/index.ts';
import { createGateway } from '../gateway.ts';
import type { CallContext } from '../port.ts';
import { OPERATION_ACCESS } from '../principal.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { soapCall } from '../../../test/kit/gateway/soap-call.ts';
import { ANN, openUsersWorld, type UsersWorld } from '../../../test/kit/gateway/users-world.ts';
import { totpCode } from '../users/totp.ts';
import { findUserByName } from '../users/user-store.ts';
import { CODE_INVALID } from './second-factor-operations.ts';

describe.each(databaseTargets())('the dashboard user session on $name', (target) => {
  let w: UsersWorld;
  beforeAll(async () => {
    w = await openUsersWorld(target);
  });
  afterAll(() => w.close());

  const as = (token: string) => ({ bearer: token });
  const call = (op: string, token: string, params: Record<string, unknown> = {}) =>
    soapCall(w.app, op, params, as(token));
  async function signIn(username = ANN.username): Promise<string> {
    const r = await w.login(username, ANN.password);
    expect(r.Status).toBe(true);
    return r.Data!;
  }
  const sessionOf = async (token: string) =>
    (await call('GetUserSession', token)).result as { SecondFactor: string; MerchantID: string };
  /** Enrols `username` and answers its setup key and recovery codes, the session verified. */
  async function enrol(username: string): Promise<{ token: string; setupKey: string; codes: string[] }> {
    const token = await signIn(username);
    const setup = (await call('BeginSecondFactorEnrolment', token)).result as { SetupKey: string };
    const r = await call('VerifySecondFactor', token, { code: totpCode(setup.SetupKey, w.clock.now) });
    const result = r.result as { Verified: boolean; RecoveryCodes: string[] };
    expect(result.Verified).toBe(true);
    return { token, setupKey: setup.SetupKey, codes: result.RecoveryCodes };
  }

  it('enrols at the first sign-in: nothing but the session answers until a code is verified', async () => {
    const token = await signIn();
    expect(await sessionOf(token)).toMatchObject({ SecondFactor: 'EnrolmentRequired', MerchantID: w.a.id });
    const early = await call('ListCheckoutSessions', token);
    expect(early.status).toBe(500);
    expect(early.body).toContain('second_factor_required');

    const setup = (await call('BeginSecondFactorEnrolment', token)).result as {
      SetupKey: string;
      OtpAuthUri: string;
    };
    expect(setup.SetupKey).toMatch(/^[A-Z2-7]{32}$/);
    expect(setup.OtpAuthUri).toContain(`secret=${setup.SetupKey}`);
    expect(setup.OtpAuthUri).toContain('Ann.Admin');

    const wrong = (await call('VerifySecondFactor', token, { code: '000000' })).result;
    expect(wrong).toMatchObject({ Verified: false, Message: CODE_INVALID });
    const right = (await call('VerifySecondFactor', token, { code: totpCode(setup.SetupKey, w.clock.now) }))
      .result as { Verified: boolean; RecoveryCodes: string[] };
    expect(right.Verified).toBe(true);
    expect(right.RecoveryCodes).toHaveLength(10);
    expect(new Set(right.RecoveryCodes).size).toBe(10);
    expect((await sessionOf(token)).SecondFactor).toBe('Verified');
    // Now it acts as its merchant, on its own data only.
    const list = await call('ListCheckoutSessions', token);
    expect(list.status).toBe(200);
    const other = await call('GetMerchantInfo', token, { merchantID: w.b.id });
    expect(other.status).not.toBe(200);
    // Enrolled: a second enrolment is refused.
    expect((await call('BeginSecondFactorEnrolment', token)).body).toContain('>conflict<');
    // The recovery codes and the key are stored encrypted or hashed only.
    const { rows } = await w.db.query<Record<string, unknown>>(
      'select * from merchant_users where username = $1',
      [ANN.username],
    );
    expect(JSON.stringify(rows)).not.toContain(setup.SetupKey);
    const codes = await w.db.query('select code_hash from user_recovery_codes');
    expect(JSON.stringify(codes.rows)).not.toContain(right.RecoveryCodes[0]!.replace(/-/g, ''));
  });

  it('asks later sign-ins for a code, accepts each code once, and a recovery code once', async () => {
    await w.newUser('bea.staff');
    const { setupKey, codes } = await enrol('bea.staff');
    w.advance(1); // two steps on: the enrolment's code is out of the window

    const second = await signIn('bea.staff');
    expect((await sessionOf(second)).SecondFactor).toBe('Required');
    const code = totpCode(setupKey, w.clock.now);
    expect((await call('VerifySecondFactor', second, { code })).result).toMatchObject({ Verified: true });
    expect((await sessionOf(second)).SecondFactor).toBe('Verified');

    const third = await signIn('bea.staff');
    // The same code again, within its window: refused (RFC 6238 §5.2).
    expect((await call('VerifySecondFactor', third, { code })).result).toMatchObject({ Verified: false });
    const recovery = codes[3]!;
    expect((await call('VerifySecondFactor', third, { code: recovery.toLowerCase() })).result).toMatchObject({
      Verified: true,
    });
    const fourth = await signIn('bea.staff');
    expect((await call('VerifySecondFactor', fourth, { code: recovery })).result).toMatchObject({
      Verified: false,
    });
    // The code of the next step is accepted.
    const next = totpCode(setupKey, new Date(w.clock.now.getTime() + 30_000));
    expect((await call('VerifySecondFactor', fourth, { code: next })).result).toMatchObject({
      Verified: true,
    });
  });

  it('ends a session after 15 idle minutes, and on sign-out', async () => {
    await w.newUser('cy.viewer');
    const { token } = await enrol('cy.viewer');
    w.advance(14);
    expect((await call('GetUserSession', token)).status).toBe(200);
    w.advance(14); // 14 minutes after the last call: still alive
    expect((await call('ListCheckoutSessions', token)).status).toBe(200);
    w.advance(15);
    expect((await call('GetUserSession', token)).status).toBe(401);

    const other = await signIn('cy.viewer');
    expect((await call('EndUserSession', other)).result).toMatchObject({ Status: true });
    expect((await call('GetUserSession', other)).status).toBe(401);
  });

  it('ends it sooner when the operator sets DASHBOARD_IDLE_MINUTES', async () => {
    await w.newUser('cy.strict');
    const { token } = await enrol('cy.strict');
    w.deps.userIdleMinutes = 5;
    try {
      w.advance(4);
      expect((await call('GetUserSession', token)).status).toBe(200);
      w.advance(5);
      expect((await call('GetUserSession', token)).status).toBe(401);
    } finally {
      delete w.deps.userIdleMinutes;
    }
  });

  it('counts wrong codes as failed sign-ins: the tenth locks the user and ends its sessions', async () => {
    await w.newUser('dan.locked');
    const { setupKey } = await enrol('dan.locked');
    w.advance(1);
    let token = await signIn('dan.locked');
    for (let i = 0; i < 9; i++) {
      expect((await call('VerifySecondFactor', token, { code: '123456' })).result).toMatchObject({
        Verified: false,
      });
      // A right password does not clear the count while the code is still owed.
      if (i === 4) token = await signIn('dan.locked');
    }
    expect((await findUserByName(w.db, 'dan.locked'))?.failedAttempts).toBe(9);
    expect((await call('VerifySecondFactor', token, { code: '654321' })).result).toMatchObject({
      Verified: false,
    });
    expect((await call('GetUserSession', token)).status).toBe(401);
    expect((await w.login('dan.locked', ANN.password)).Status).toBe(false);
    w.advance(31);
    token = await signIn('dan.locked');
    expect(
      (await call('VerifySecondFactor', token, { code: totpCode(setupKey, w.clock.now) })).result,
    ).toMatchObject({ Verified: true });
    expect((await findUserByName(w.db, 'dan.locked'))?.failedAttempts).toBe(0);
  });

  it("records a user's changes with the user, and refuses a token that names no session", async () => {
    await w.newUser('eve.staff');
    const { token } = await enrol('eve.staff');
    const made = await call('CreateHostedPayment', token, {
      request: { MerchantID: w.a.id, Amount: '12.50', OrderNumber: 'A-77' },
    });
    expect(made.status).toBe(200);
    const user = await findUserByName(w.db, 'eve.staff');
    const { rows } = await w.db.query<{ action: string; outcome: string; detail: unknown }>(
      `select action, outcome, detail from audit_events where actor = $1 and action like 'operation.%'`,
      [`merchant_user:${user!.id}`],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'operation.CreateHostedPayment', outcome: 'success' });
    const detail = typeof rows[0]!.detail === 'string' ? JSON.parse(rows[0]!.detail) : rows[0]!.detail;
    expect(detail).toMatchObject({ Amount: '12.50', OrderNumber: 'A-77', Success: true });

    const forged = `ls_${'A'.repeat(43)}`;
    expect((await call('GetUserSession', forged)).status).toBe(401);
  });

  it('answers nothing but the four session operations before the second factor, in process too', async () => {
    await w.newUser('fay.pending');
    const token = await signIn('fay.pending');
    const service = createGateway(w.deps) as unknown as Record<
      string,
      (p: unknown, c: CallContext) => Promise<unknown>
    >;
    const context: CallContext = {
      binding: 'inProcess',
      requestId: 'only-four',
      remoteAddress: '192.0.2.10',
      log: w.app.log,
      authorization: `Bearer ${token}`,
    };
    const answered: string[] = [];
    for (const op of operations) {
      const access = OPERATION_ACCESS[op.name];
      if (access === 'public' || access === 'user') continue;
      const code = await service[op.name]!({}, context).then(
        () => 'answered',
        (err: { code?: string }) => err.code,
      );
      if (code !== 'second_factor_required') answered.push(`${op.name}: ${code}`);
    }
    expect(answered).toEqual([]);
  });

  it('keeps each sign-in’s enrolment key its own, and enrols nothing while the user is locked', async () => {
    await w.newUser('gus.enrol');
    const first = await signIn('gus.enrol');
    const second = await signIn('gus.enrol');
    const a = (await call('BeginSecondFactorEnrolment', first)).result as { SetupKey: string };
    const b = (await call('BeginSecondFactorEnrolment', second)).result as { SetupKey: string };
    expect(a.SetupKey).not.toBe(b.SetupKey);
    // The first sign-in's key still completes its own enrolment.
    expect(
      (await call('VerifySecondFactor', first, { code: totpCode(a.SetupKey, w.clock.now) })).result,
    ).toMatchObject({ Verified: true });

    await w.newUser('hal.locked');
    const token = await signIn('hal.locked');
    const setup = (await call('BeginSecondFactorEnrolment', token)).result as { SetupKey: string };
    for (let i = 0; i < 10; i++) await w.login('hal.locked', `wrong password ${i}`);
    const late = await call('VerifySecondFactor', token, { code: totpCode(setup.SetupKey, w.clock.now) });
    expect(late.result).toMatchObject({ Verified: false });
    const { rows } = await w.db.query<{ enrolled: boolean; codes: number }>(
      `select u.totp_enrolled_at is not null as enrolled,
              (select count(*)::int from user_recovery_codes c where c.user_id = u.id) as codes
         from merchant_users u where username = 'hal.locked'`,
    );
    expect(rows[0]).toEqual({ enrolled: false, codes: 0 });
    expect((await call('GetUserSession', token)).status).toBe(401);
  });

  it('refuses an ended session’s token without counting it as a guess', async () => {
    await w.newUser('ida.idle');
    const { token } = await enrol('ida.idle');
    expect((await call('EndUserSession', token)).status).toBe(200);
    for (let i = 0; i < 12; i++) expect((await call('GetUserSession', token)).status).toBe(401);
    const info = await soapCall(w.app, 'GetMerchantInfo', { merchantID: w.a.id }, w.a.as);
    expect(info.status).toBe(200);
  });

  it('keeps a user’s change when its audit record cannot be written (logged instead)', async () => {
    await w.newUser('jo.audit');
    const { token } = await enrol('jo.audit');
    await w.db.exec('alter table audit_events rename to audit_events_away');
    try {
      const made = await call('CreateHostedPayment', token, {
        request: { MerchantID: w.a.id, Amount: '3.00', OrderNumber: 'AUDIT-DOWN' },
      });
      expect(made.status).toBe(200);
      expect((made.result as { Success: boolean }).Success).toBe(true);
    } finally {
      await w.db.exec('alter table audit_events_away rename to audit_events');
    }
  });
});
