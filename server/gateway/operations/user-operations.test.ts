import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets } from '../../../test/kit/databases.ts';
import { ANN, openUsersWorld, type UsersWorld } from '../../../test/kit/gateway/users-world.ts';
import { useSession } from '../users/login-sessions.ts';
import { createUser, findUserByName } from '../users/user-store.ts';
import { LOGIN_FAILED, LOGIN_OK } from './user-operations.ts';

const TOKEN = /^ls_[A-Za-z0-9_-]{43}$/;

describe.each(databaseTargets())('Login on $name', (target) => {
  let w: UsersWorld;
  beforeAll(async () => {
    w = await openUsersWorld(target);
  });
  afterAll(() => w.close());

  it('signs in anonymously (no credential) and returns an opaque session token in Data', async () => {
    const r = await w.login('ann.admin', ANN.password); // user names compare case-insensitively
    expect(r).toMatchObject({ Status: true, Message: LOGIN_OK });
    expect(r.Data).toMatch(TOKEN);
    const session = await useSession(w.db, r.Data!, w.clock.now);
    expect(session?.userId).toBe((await findUserByName(w.db, 'Ann.Admin'))?.id);
    // 12 hours at most, however busy (the idle limit lifted here to see the absolute one alone).
    const at = (ms: number) => new Date(w.clock.now.getTime() + ms);
    expect(await useSession(w.db, r.Data!, at(12 * 3600_000 - 1000), 24 * 60)).not.toBeNull();
    expect(await useSession(w.db, r.Data!, at(12 * 3600_000), 24 * 60)).toBeNull();
  });

  it('returns the token and the profile as JSON in Data when ProfileInfo is true', async () => {
    const r = await w.login(ANN.username, ANN.password, true);
    expect(r.Status).toBe(true);
    const data = JSON.parse(r.Data!);
    expect(data).toEqual({
      token: expect.stringMatching(TOKEN),
      expiresAt: new Date(w.clock.now.getTime() + 12 * 3600_000).toISOString(),
      profile: {
        userName: 'Ann.Admin',
        email: ANN.email,
        merchantId: w.a.id,
        merchantName: 'Alpha Outfitters',
      },
    });
    expect(r.body).not.toContain(ANN.password);
  });

  it('answers a wrong password, an unknown user and empty fields with the same response', async () => {
    const wrong = await w.login(ANN.username, 'correct horse 42 batterY');
    const unknown = await w.login('nobody.here', ANN.password);
    const empty = await w.login('', '');
    for (const r of [wrong, unknown, empty]) {
      expect(r.Status).toBe(false);
      expect(r.Message).toBe(LOGIN_FAILED);
      expect(r.Data).toBeUndefined();
    }
    expect(unknown.body).toBe(wrong.body);
    expect(empty.body).toBe(wrong.body);
    // The failure above counted for Ann; a success clears the count.
    expect((await w.login(ANN.username, ANN.password)).Status).toBe(true);
    expect((await findUserByName(w.db, ANN.username))?.failedAttempts).toBe(0);
  });

  it('locks a user for 30 minutes after 10 failures: the 11th fails with the right password, still at +29 min', async () => {
    await w.newUser('lock.me');
    for (let i = 1; i <= 10; i++) {
      const r = await w.login('lock.me', `wrong password ${i}`);
      expect(r).toMatchObject({ Status: false, Message: LOGIN_FAILED });
    }
    const locked = await w.login('lock.me', ANN.password);
    expect(locked).toMatchObject({ Status: false, Message: LOGIN_FAILED });
    expect(locked.body).toBe((await w.login('nobody.here', 'x')).body); // says nothing about the lock
    w.advance(29);
    expect((await w.login('lock.me', ANN.password)).Status).toBe(false);
    w.advance(1);
    expect((await w.login('lock.me', ANN.password)).Status).toBe(true);
    // The count starts again after the lock: one failure does not lock again.
    expect((await w.login('lock.me', 'wrong again 1')).Status).toBe(false);
    expect((await w.login('lock.me', ANN.password)).Status).toBe(true);

    const { rows } = await w.db.query<{ action: string; outcome: string; detail: Record<string, unknown> }>(
      `select action, outcome, detail from audit_events
       where resource = (select 'merchant_user:' || id from merchant_users where username = 'lock.me') order by id`,
    );
    expect(rows.filter((r) => r.action === 'user.locked')).toHaveLength(1);
    expect(rows.filter((r) => r.action === 'user.login' && r.outcome === 'failure')).toHaveLength(13);
    expect(rows.some((r) => r.detail.reason === 'locked')).toBe(true);
    expect(JSON.stringify(rows)).not.toContain(ANN.password);
  });

  it('creates users only with a strong password, a free user name and an existing merchant', async () => {
    const base = { merchantId: w.a.id, username: 'new.user', password: 'long enough 123' };
    await expect(createUser(w.db, { ...base, password: 'short 1' })).rejects.toMatchObject({
      code: 'validation_failed',
      fields: [{ field: 'password', code: 'weak_password' }],
    });
    await expect(createUser(w.db, { ...base, password: 'no digits at all here' })).rejects.toThrow(
      /letters and digits/,
    );
    await expect(createUser(w.db, { ...base, username: 'ANN.ADMIN' })).rejects.toThrow(/taken/);
    await expect(createUser(w.db, { ...base, username: 'a' })).rejects.toMatchObject({
      code: 'validation_failed',
    });
    await expect(createUser(w.db, { ...base, username: '4111111111111111' })).rejects.toMatchObject({
      code: 'validation_failed',
    });
    await expect(createUser(w.db, { ...base, email: 'nope' })).rejects.toThrow(/e-mail/);
    await expect(createUser(w.db, { ...base, merchantId: '999999999' })).rejects.toMatchObject({
      code: 'not_found',
    });
    const user = await createUser(w.db, base);
    expect(user).toMatchObject({ username: 'new.user', merchantId: w.a.id, email: null, failedAttempts: 0 });
    expect(user.passwordHash).toMatch(/^\$scrypt\$/);
  });
});
