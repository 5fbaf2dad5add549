/**
 * The team's operations (team-operations.ts) through the real SOAP endpoint, on every database
 * target: an Owner invites by e-mail and the invitee accepts once; an Owner changes roles, disables
 * and enables users and resets second factors, never leaving the merchant without an enabled owner
 * (also under two concurrent demotions); Admins read the team, and no one but an Owner changes it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOutbox } from '../../notify/outbox.ts';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { call, rawCall } from '../../../test/kit/gateway/gateway-kit.ts';
import { ANN, openUsersWorld, type UsersWorld } from '../../../test/kit/gateway/users-world.ts';
import { totpCode } from '../users/totp.ts';
import { INVITATION_UNUSABLE } from '../users/invitations.ts';
import { changeMember, LAST_OWNER, NO_LONGER_OWNER, NOT_YOURSELF_DISABLE } from '../users/team.ts';
import { createUser, findUserByName } from '../users/user-store.ts';
import { LOGIN_FAILED } from './user-operations.ts';

const PASSWORD = ANN.password;

describe.each(databaseTargets())('the team ($name)', (target) => {
  let w: UsersWorld;
  let ann: string; // Ann's verified session: the merchant's first owner
  let n = 0;

  const idOf = async (username: string) => (await findUserByName(w.db, username))!.id;

  /** Signs in with the password, enrolling or verifying the second factor; the session token. */
  async function signIn(username: string, password = PASSWORD, setupKeys = new Map<string, string>()) {
    const r = await w.login(username, password);
    expect(r.Status, `${username} signs in`).toBe(true);
    const token = r.Data!;
    const session = await call(w.app, 'GetUserSession', {}, { bearer: token });
    let key = setupKeys.get(username);
    if (session.SecondFactor === 'EnrolmentRequired') {
      key = (await call(w.app, 'BeginSecondFactorEnrolment', {}, { bearer: token })).SetupKey!;
      setupKeys.set(username, key);
    }
    // A code is accepted once per 30 s step: each sign-in of a test moves on a step.
    w.advance(1);
    const verified = await call(
      w.app,
      'VerifySecondFactor',
      { code: totpCode(key!, w.clock.now) },
      { bearer: token },
    );
    expect(verified.Verified).toBe(true);
    return token;
  }
  const keys = new Map<string, string>();

  /** A new user of merchant a with this role, signed in; its name and token. */
  async function member(role: 'owner' | 'admin' | 'staff' | 'viewer') {
    const username = `${role}.${++n}`;
    await w.newUser(username, `${username}@alpha.example`, role);
    return { username, id: await idOf(username), token: await signIn(username, PASSWORD, keys) };
  }

  async function invitationTokenSentTo(to: string): Promise<string | undefined> {
    await w.deps.notifier.flush();
    const [newest] = await listOutbox(w.db, { to });
    return newest && /\/dashboard\/invite#(iv_[A-Za-z0-9_-]{43})\n/.exec(newest.text)?.[1];
  }

  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  /** How a raw call ended: `ok`, or its error code (a SOAP fault's, or the transport's 401/429). */
  const outcome = (f: { status: number; errorCode?: string }) =>
    f.status === 200
      ? 'ok'
      : f.status === 401
        ? 'unauthorized'
        : f.status === 429
          ? 'rate_limited'
          : f.errorCode;

  beforeAll(async () => {
    w = await openUsersWorld(target);
    ann = await signIn(ANN.username, PASSWORD, keys);
    await createUser(w.db, { merchantId: w.b.id, username: 'Bob.Bravo', password: PASSWORD });
  });
  afterAll(() => w?.close());

  it('invites by e-mail: the link works once, makes the user with its role, and is audited', async () => {
    const invited = await call(
      w.app,
      'InviteUser',
      { email: 'Nina@alpha.example', role: 'Staff' },
      {
        bearer: ann,
      },
    );
    expect(invited).toMatchObject({ Email: 'Nina@alpha.example', Role: 'Staff', InvitedBy: ANN.username });
    expect(Date.parse(invited.ExpiresAt) - w.clock.now.getTime()).toBe(72 * 3600_000);
    const token = await invitationTokenSentTo('nina@alpha.example');
    expect(token).toBeDefined();
    // Stored only as its digest.
    const stored = await w.db.query<{ token_hash: string }>('select token_hash from user_invitations');
    expect(stored.rows.map((r) => r.token_hash)).not.toContain(token);

    const team = await call(w.app, 'ListUsers', {}, { bearer: ann });
    expect(team.Invitations!.map((i) => i.Email)).toEqual(['Nina@alpha.example']);

    const detail = await call(w.app, 'GetInvitation', { token }, null);
    expect(detail).toMatchObject({
      Email: 'Nina@alpha.example',
      Role: 'Staff',
      MerchantName: 'Alpha Outfitters',
    });

    // A weak password and a taken user name leave the link usable.
    const weak = await rawCall(
      w.app,
      'AcceptInvitation',
      { token, userName: 'Nina', password: 'short1' },
      null,
    );
    expect(outcome(weak)).toBe('validation_failed');
    const taken = await rawCall(
      w.app,
      'AcceptInvitation',
      { token, userName: ANN.username, password: PASSWORD },
      null,
    );
    expect(outcome(taken)).toBe('validation_failed');
    expect(taken.message).toContain('taken');

    const accepted = await call(
      w.app,
      'AcceptInvitation',
      { token, userName: 'Nina', password: PASSWORD },
      null,
    );
    expect(accepted.Status).toBe(true);
    const again = await rawCall(
      w.app,
      'AcceptInvitation',
      { token, userName: 'Nina2', password: PASSWORD },
      null,
    );
    expect(outcome(again)).toBe('invalid_request');
    expect(again.message).toBe(INVITATION_UNUSABLE);
    expect(await findUserByName(w.db, 'Nina2')).toBeNull();
    expect((await rawCall(w.app, 'GetInvitation', { token }, null)).message).toBe(INVITATION_UNUSABLE);

    const nina = (await findUserByName(w.db, 'Nina'))!;
    expect(nina).toMatchObject({ role: 'staff', email: 'Nina@alpha.example', merchantId: w.a.id });
    // Signs in and must enrol a second factor first.
    const login = await w.login('Nina', PASSWORD);
    expect(login.Status).toBe(true);
    const session = await call(w.app, 'GetUserSession', {}, { bearer: login.Data! });
    expect(session).toMatchObject({ SecondFactor: 'EnrolmentRequired', Role: 'Staff' });

    const after = await call(w.app, 'ListUsers', {}, { bearer: ann });
    expect(after.Invitations ?? []).toEqual([]);
    expect(after.Users!.find((u) => u.UserName === 'Nina')).toMatchObject({
      Role: 'Staff',
      SecondFactorEnrolled: false,
      Disabled: false,
    });
    const events = await call(w.app, 'ListAuditEvents', { filter: { Limit: 100 } }, w.a.as);
    const actions = events.Events!.map((e) => `${e.Actor} ${e.Action} ${e.Outcome}`);
    expect(actions).toContain('Nina user.invitation_accepted Success');
    expect(actions).toContain(`${ANN.username} operation.InviteUser Success`);
  });

  it('accepting one link twice at once makes one user', async () => {
    await call(w.app, 'InviteUser', { email: 'twice@alpha.example', role: 'Viewer' }, { bearer: ann });
    const token = (await invitationTokenSentTo('twice@alpha.example'))!;
    const both = await Promise.all(
      ['Twice.One', 'Twice.Two'].map((userName) =>
        rawCall(w.app, 'AcceptInvitation', { token, userName, password: PASSWORD }, null),
      ),
    );
    expect(both.map(outcome).sort()).toEqual(['invalid_request', 'ok']);
    const made = await w.db.query(
      "select 1 from merchant_users where lower(username) in ('twice.one', 'twice.two')",
    );
    expect(made.rows).toHaveLength(1);
  });

  it('refuses an expired, a revoked and an unknown link with one message', async () => {
    await call(w.app, 'InviteUser', { email: 'late@alpha.example', role: 'Viewer' }, { bearer: ann });
    const late = (await invitationTokenSentTo('late@alpha.example'))!;
    const revoked = await call(
      w.app,
      'InviteUser',
      { email: 'gone@alpha.example', role: 'Admin' },
      {
        bearer: ann,
      },
    );
    const gone = (await invitationTokenSentTo('gone@alpha.example'))!;
    const r = await call(w.app, 'RevokeInvitation', { invitationID: revoked.InvitationID }, { bearer: ann });
    expect(r.Status).toBe(true);
    w.advance(72 * 60 + 1);
    for (const token of [late, gone, 'iv_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'nonsense']) {
      const answer = await rawCall(
        w.app,
        'AcceptInvitation',
        { token, userName: 'Late.Comer', password: PASSWORD },
        null,
        '10.9.9.9',
      );
      expect(outcome(answer)).toBe('invalid_request');
      expect(answer.message).toBe(INVITATION_UNUSABLE);
    }
    expect(await findUserByName(w.db, 'Late.Comer')).toBeNull();
    // Sessions idled out while the clock moved: Ann signs in again.
    ann = await signIn(ANN.username, PASSWORD, keys);
  });

  it('throttles an address that tries unusable links', async () => {
    let last: string | undefined;
    for (let i = 0; i < 31; i++) {
      last = outcome(await rawCall(w.app, 'GetInvitation', { token: 'iv_guess' }, null, '10.7.7.7'));
    }
    expect(last).toBe('rate_limited');
  });

  it('disabling a user ends its sessions at once and refuses its sign-in as Login refuses any', async () => {
    const carl = await member('staff');
    const disabled = await call(w.app, 'DisableUser', { userID: carl.id }, { bearer: ann });
    expect(disabled).toMatchObject({ UserName: carl.username, Disabled: true });
    // The next call with its token is refused.
    expect(outcome(await rawCall(w.app, 'GetUserSession', {}, bearer(carl.token)))).toBe('unauthorized');
    const login = await w.login(carl.username, PASSWORD);
    expect(login).toMatchObject({ Status: false, Message: LOGIN_FAILED });
    // Enabled again, it signs in.
    await call(w.app, 'EnableUser', { userID: carl.id }, { bearer: ann });
    expect((await w.login(carl.username, PASSWORD)).Status).toBe(true);
    // The audit names Carl as the subject of Ann's change.
    const events = await call(
      w.app,
      'ListAuditEvents',
      { filter: { ActionPrefix: 'operation.DisableUser' } },
      w.a.as,
    );
    expect(events.Events![0]).toMatchObject({
      Actor: ANN.username,
      Subject: carl.username,
      Outcome: 'Success',
    });
  });

  it("resetting a second factor clears it and ends the user's sessions; it enrols again", async () => {
    const dora = await member('viewer');
    const codes = await w.db.query('select 1 from user_recovery_codes where user_id = $1', [dora.id]);
    expect(codes.rows.length).toBe(10);
    const reset = await call(w.app, 'ResetUserSecondFactor', { userID: dora.id }, { bearer: ann });
    expect(reset.SecondFactorEnrolled).toBe(false);
    expect(outcome(await rawCall(w.app, 'GetUserSession', {}, bearer(dora.token)))).toBe('unauthorized');
    const gone = await w.db.query('select 1 from user_recovery_codes where user_id = $1', [dora.id]);
    expect(gone.rows).toEqual([]);
    const login = await w.login(dora.username, PASSWORD);
    const session = await call(w.app, 'GetUserSession', {}, { bearer: login.Data! });
    expect(session.SecondFactor).toBe('EnrolmentRequired');
  });

  it('changes a role, effective on the next call', async () => {
    const eve = await member('viewer');
    expect(outcome(await rawCall(w.app, 'ListUsers', {}, bearer(eve.token)))).toBe('forbidden');
    const changed = await call(w.app, 'ChangeUserRole', { userID: eve.id, role: 'Admin' }, { bearer: ann });
    expect(changed.Role).toBe('Admin');
    expect(outcome(await rawCall(w.app, 'ListUsers', {}, bearer(eve.token)))).toBe('ok');
  });

  it('refuses team changes to an Admin and a Viewer (403), and acts on its own users only', async () => {
    const admin = await member('admin');
    const viewer = await member('viewer');
    for (const token of [admin.token, viewer.token]) {
      const r = await rawCall(
        w.app,
        'InviteUser',
        { email: 'x@alpha.example', role: 'Owner' },
        bearer(token),
      );
      expect(outcome(r)).toBe('forbidden');
      const d = await rawCall(w.app, 'DisableUser', { userID: await idOf(ANN.username) }, bearer(token));
      expect(outcome(d)).toBe('forbidden');
    }
    expect((await findUserByName(w.db, ANN.username))!.disabled).toBe(false);
    // Another merchant's user is not found.
    const bob = await idOf('Bob.Bravo');
    expect(outcome(await rawCall(w.app, 'DisableUser', { userID: bob }, bearer(ann)))).toBe('not_found');
    expect((await findUserByName(w.db, 'Bob.Bravo'))!.disabled).toBe(false);
    // A merchant's TransactionKey has no team to run.
    const key = await rawCall(w.app, 'InviteUser', { email: 'k@alpha.example', role: 'Viewer' }, w.a.as);
    expect(outcome(key)).toBe('forbidden');
  });

  it('keeps the last enabled owner: no demotion, no disabling, not of oneself either', async () => {
    const annId = await idOf(ANN.username);
    const demote = await rawCall(w.app, 'ChangeUserRole', { userID: annId, role: 'Admin' }, bearer(ann));
    expect(outcome(demote)).toBe('conflict');
    expect(demote.message).toBe(LAST_OWNER);
    const self = await rawCall(w.app, 'DisableUser', { userID: annId }, bearer(ann));
    expect(outcome(self)).toBe('invalid_request');
    expect(self.message).toBe(NOT_YOURSELF_DISABLE);
    // With a second owner, the first may step down; the second is then the last.
    const otto = await member('owner');
    await call(w.app, 'ChangeUserRole', { userID: annId, role: 'Admin' }, { bearer: ann });
    const back = await rawCall(
      w.app,
      'ChangeUserRole',
      { userID: otto.id, role: 'Staff' },
      bearer(otto.token),
    );
    expect(outcome(back)).toBe('conflict');
    await call(w.app, 'ChangeUserRole', { userID: annId, role: 'Owner' }, { bearer: otto.token });
    // A disabled owner is no owner to count: Otto disabled, Ann is the last.
    await call(w.app, 'DisableUser', { userID: otto.id }, { bearer: ann });
    expect(
      outcome(await rawCall(w.app, 'ChangeUserRole', { userID: annId, role: 'Viewer' }, bearer(ann))),
    ).toBe('conflict');
    const events = await call(
      w.app,
      'ListAuditEvents',
      { filter: { ActionPrefix: 'operation.ChangeUserRole', Outcome: 'Failure' } },
      w.a.as,
    );
    // About herself: the log names no other subject; the refusal is kept with its reason.
    expect(events.Events![0]).toMatchObject({ Actor: ANN.username, Outcome: 'Failure' });
    expect(events.Events![0]!.Detail).toEqual(
      expect.arrayContaining([
        { Name: 'error', Value: 'conflict' },
        { Name: 'role', Value: 'Viewer' },
      ]),
    );
  });

  it('of two owners stepping down at once, one stays an owner', async () => {
    // Each demotes itself (allowed while another owner is left): only the lock on the team's rows
    // decides which one is the last owner, and it keeps the role.
    for (let round = 0; round < 3; round++) {
      const p = await member('owner');
      const q = await member('owner');
      // Ann steps aside so that p and q are the only enabled owners.
      await call(
        w.app,
        'ChangeUserRole',
        { userID: await idOf(ANN.username), role: 'Admin' },
        { bearer: p.token },
      );
      const answers = await Promise.all([
        rawCall(w.app, 'ChangeUserRole', { userID: p.id, role: 'Staff' }, bearer(p.token)),
        rawCall(w.app, 'ChangeUserRole', { userID: q.id, role: 'Staff' }, bearer(q.token)),
      ]);
      expect(answers.map(outcome).sort()).toEqual(['conflict', 'ok']);
      const owners = await w.db.query<{ id: string }>(
        "select id from merchant_users where merchant_id = $1 and role = 'owner' and disabled_at is null",
        [w.a.id],
      );
      const owner = outcome(answers[0]!) === 'ok' ? q : p;
      expect(owners.rows.map((r) => String(r.id))).toEqual([owner.id]);
      // Back to Ann as the only owner for the next round.
      await call(
        w.app,
        'ChangeUserRole',
        { userID: await idOf(ANN.username), role: 'Owner' },
        { bearer: owner.token },
      );
      await call(w.app, 'ChangeUserRole', { userID: owner.id, role: 'Viewer' }, { bearer: ann });
    }
  });

  it('of two owners demoting each other at once, one stays an owner', async () => {
    const p = await member('owner');
    const q = await member('owner');
    await call(
      w.app,
      'ChangeUserRole',
      { userID: await idOf(ANN.username), role: 'Admin' },
      { bearer: p.token },
    );
    const answers = await Promise.all([
      rawCall(w.app, 'ChangeUserRole', { userID: q.id, role: 'Staff' }, bearer(p.token)),
      rawCall(w.app, 'ChangeUserRole', { userID: p.id, role: 'Staff' }, bearer(q.token)),
    ]);
    // The second is refused: by the lock (the last owner), or, when the first was done before its
    // role was checked, because its caller is no Owner any more.
    expect(answers.filter((a) => outcome(a) === 'ok')).toHaveLength(1);
    expect(answers.map(outcome)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^(conflict|forbidden)$/)]),
    );
    const owners = await w.db.query(
      "select 1 from merchant_users where merchant_id = $1 and role = 'owner' and disabled_at is null",
      [w.a.id],
    );
    expect(owners.rows).toHaveLength(1);
  });

  it('revokes the pending invitations of an owner disabled or demoted, in the same change', async () => {
    // The earlier tests leave Ann an Admin: a new Owner acts.
    const boss = await member('owner');
    const sender = await member('owner');
    const pendingOf = async (id: string) =>
      (
        await w.db.query<{ email: string }>(
          `select email from user_invitations
           where invited_by = $1 and accepted_at is null and revoked_at is null order by email`,
          [id],
        )
      ).rows.map((r) => r.email);
    const invite = (email: string, token: string) =>
      call(w.app, 'InviteUser', { email, role: 'Staff' }, { bearer: token });

    // Demoted away from Owner: its invitations go; another Owner's stay.
    await invite('demoted.1@alpha.example', sender.token);
    await invite('demoted.2@alpha.example', sender.token);
    await invite('boss.kept@alpha.example', boss.token);
    expect(await pendingOf(sender.id)).toEqual(['demoted.1@alpha.example', 'demoted.2@alpha.example']);
    await call(w.app, 'ChangeUserRole', { userID: sender.id, role: 'Admin' }, { bearer: boss.token });
    expect(await pendingOf(sender.id)).toEqual([]);
    const link = (await invitationTokenSentTo('demoted.1@alpha.example'))!;
    const refused = await rawCall(
      w.app,
      'AcceptInvitation',
      { token: link, userName: 'Demoted.One', password: PASSWORD },
      null,
    );
    expect(outcome(refused)).toBe('invalid_request');
    expect(await pendingOf(boss.id)).toContain('boss.kept@alpha.example');

    // Disabled: the invitations it sent as an Owner go too.
    const other = await member('owner');
    await invite('disabled.1@alpha.example', other.token);
    expect(await pendingOf(other.id)).toEqual(['disabled.1@alpha.example']);
    await call(w.app, 'DisableUser', { userID: other.id }, { bearer: boss.token });
    expect(await pendingOf(other.id)).toEqual([]);
    expect(await pendingOf(boss.id)).toContain('boss.kept@alpha.example');
  });

  it('refuses a change whose actor, read under the lock, is no longer an enabled owner', async () => {
    const boss = await member('owner');
    const p = await member('owner');
    const target = await member('staff');
    // p was demoted, then disabled, after its call's role check (changeMember called directly).
    await call(w.app, 'ChangeUserRole', { userID: p.id, role: 'Admin' }, { bearer: boss.token });
    const demoted = changeMember(w.db, w.a.id, p.id, target.id, { kind: 'disable' }, w.clock.now);
    await expect(demoted).rejects.toMatchObject({ code: 'forbidden', message: NO_LONGER_OWNER });
    await call(w.app, 'ChangeUserRole', { userID: p.id, role: 'Owner' }, { bearer: boss.token });
    await call(w.app, 'DisableUser', { userID: p.id }, { bearer: boss.token });
    const disabled = changeMember(
      w.db,
      w.a.id,
      p.id,
      target.id,
      { kind: 'role', role: 'viewer' },
      w.clock.now,
    );
    await expect(disabled).rejects.toMatchObject({ code: 'forbidden', message: NO_LONGER_OWNER });
    // Another merchant's owner is no actor here either.
    const bob = await idOf('Bob.Bravo');
    const foreign = changeMember(w.db, w.a.id, bob, target.id, { kind: 'disable' }, w.clock.now);
    await expect(foreign).rejects.toMatchObject({ code: 'forbidden' });
    const after = await w.db.query<{ role: string; disabled_at: Date | null }>(
      'select role, disabled_at from merchant_users where id = $1',
      [target.id],
    );
    expect(after.rows[0]).toMatchObject({ role: 'staff', disabled_at: null });
  });
});
