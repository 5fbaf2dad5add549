/**
 * The dashboard's Team routes (team-routes.ts) through the real app on both databases: an Owner
 * lists the team, invites by e-mail (the link read from the dev outbox), and the invitee accepts
 * through the public routes; an Owner changes a role, disables (the user's cookie stops working on
 * its next call) and resets a second factor; the last owner is kept (409); an Admin reads the team
 * but its InviteUser is refused 403 by the server, and a Viewer's too; another site's POST is
 * refused before anything runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUserByName, createUser } from '../gateway/users/user-store.ts';
import { listOutbox } from '../notify/outbox.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import {
  type DashboardWorld,
  openDashboardWorld,
  PASSWORD,
} from '../../test/kit/dashboard/dashboard-world.ts';

describe.each(databaseTargets())('dashboard team on $name', (target) => {
  let w: DashboardWorld;
  let ann: string;

  const idOf = async (username: string) => (await findUserByName(w.db, username))!.id;

  async function invitationToken(to: string): Promise<string> {
    await w.t.gateway.deps.notifier.flush();
    const [newest] = await listOutbox(w.db, { to });
    const token = newest && /\/dashboard\/invite#(iv_[A-Za-z0-9_-]{43})\n/.exec(newest.text)?.[1];
    if (!token) throw new Error(`no invitation e-mail to ${to}`);
    return token;
  }

  beforeAll(async () => {
    w = await openDashboardWorld(target);
    ann = await w.signInVerified(w.users.ann);
  });
  afterAll(() => w.close());

  it('invites, and the invitee accepts once, signs in and must enrol', async () => {
    const invite = await w.call('POST', '/team/invitations', {
      cookie: ann,
      body: { email: 'ivy@alpha.example', role: 'Staff' },
    });
    expect(invite.statusCode).toBe(200);
    expect(invite.json().invitation).toMatchObject({ email: 'ivy@alpha.example', role: 'Staff' });
    const team = (await w.call('GET', '/team', { cookie: ann })).json();
    expect(team.invitations).toHaveLength(1);
    expect(team.users.map((u: { name: string }) => u.name)).toEqual([w.users.ann]);
    expect(team.users[0]).toMatchObject({ role: 'Owner', secondFactor: true, disabled: false });

    const token = await invitationToken('ivy@alpha.example');
    const lookup = await w.call('POST', '/invitation', { body: { token } });
    expect(lookup.json()).toMatchObject({ role: 'Staff', merchantName: 'Alpha Outfitters' });
    const accept = await w.call('POST', '/invitation/accept', {
      body: { token, username: 'ivy.staff', password: PASSWORD },
    });
    expect(accept.statusCode).toBe(200);
    const twice = await w.call('POST', '/invitation/accept', {
      body: { token, username: 'ivy.again', password: PASSWORD },
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().error.message).toMatch(/cannot be used/);

    const signIn = await w.call('POST', '/sign-in', { body: { username: 'ivy.staff', password: PASSWORD } });
    expect(signIn.json()).toEqual({ secondFactor: 'EnrolmentRequired' });
    const ivy = await w.signInVerified('ivy.staff');
    expect((await w.call('GET', '/session', { cookie: ivy })).json()).toMatchObject({ role: 'Staff' });
  });

  it('revokes an invitation: its link stops working', async () => {
    const invite = await w.call('POST', '/team/invitations', {
      cookie: ann,
      body: { email: 'rex@alpha.example', role: 'Viewer' },
    });
    const token = await invitationToken('rex@alpha.example');
    const id = invite.json().invitation.id;
    expect((await w.call('POST', `/team/invitations/${id}/revoke`, { cookie: ann })).statusCode).toBe(204);
    expect((await w.call('POST', '/invitation', { body: { token } })).statusCode).toBe(400);
  });

  it('changes a role, disables (the cookie ends on its next call) and resets a second factor', async () => {
    await createUser(w.db, { merchantId: w.a.id, username: 'carl.staff', password: PASSWORD, role: 'staff' });
    const carl = await w.signInVerified('carl.staff');
    const id = await idOf('carl.staff');
    const role = await w.call('POST', `/team/users/${id}/role`, { cookie: ann, body: { role: 'Viewer' } });
    expect(role.json().user).toMatchObject({ name: 'carl.staff', role: 'Viewer' });
    expect((await w.call('GET', '/session', { cookie: carl })).json()).toMatchObject({ role: 'Viewer' });

    const disable = await w.call('POST', `/team/users/${id}/disable`, { cookie: ann });
    expect(disable.json().user).toMatchObject({ disabled: true });
    const after = await w.call('GET', '/payments', { cookie: carl });
    expect(after.statusCode).toBe(401);
    const again = await w.call('POST', '/sign-in', { body: { username: 'carl.staff', password: PASSWORD } });
    expect(again.statusCode).toBe(401);
    expect(again.json().error.code).toBe('sign_in_failed');

    expect((await w.call('POST', `/team/users/${id}/enable`, { cookie: ann })).json().user.disabled).toBe(
      false,
    );
    const carl2 = await w.signInVerified('carl.staff');
    const reset = await w.call('POST', `/team/users/${id}/reset-second-factor`, { cookie: ann });
    expect(reset.json().user).toMatchObject({ secondFactor: false });
    expect((await w.call('GET', '/session', { cookie: carl2 })).statusCode).toBe(401);
    const signIn = await w.call('POST', '/sign-in', { body: { username: 'carl.staff', password: PASSWORD } });
    expect(signIn.json()).toEqual({ secondFactor: 'EnrolmentRequired' });
  });

  it('keeps the last owner, with a clear message', async () => {
    const annId = await idOf(w.users.ann);
    const demote = await w.call('POST', `/team/users/${annId}/role`, {
      cookie: ann,
      body: { role: 'Admin' },
    });
    expect(demote.statusCode).toBe(409);
    expect(demote.json().error.message).toMatch(/last Owner/);
    const self = await w.call('POST', `/team/users/${annId}/disable`, { cookie: ann });
    expect(self.statusCode).toBe(400);
  });

  it("refuses an Admin's and a Viewer's InviteUser with 403; an Admin reads the team, a Viewer does not", async () => {
    await createUser(w.db, { merchantId: w.a.id, username: 'ada.admin', password: PASSWORD, role: 'admin' });
    await createUser(w.db, {
      merchantId: w.a.id,
      username: 'val.viewer',
      password: PASSWORD,
      role: 'viewer',
    });
    const admin = await w.signInVerified('ada.admin');
    const viewer = await w.signInVerified('val.viewer');
    for (const cookie of [admin, viewer]) {
      const r = await w.call('POST', '/team/invitations', {
        cookie,
        body: { email: 'eve@alpha.example', role: 'Owner' },
      });
      expect(r.statusCode).toBe(403);
      expect(r.json().error).toMatchObject({
        code: 'forbidden',
        message: expect.stringMatching(/Owner role/),
      });
      const d = await w.call('POST', `/team/users/${await idOf(w.users.ann)}/disable`, { cookie });
      expect(d.statusCode).toBe(403);
    }
    expect((await w.call('GET', '/team', { cookie: admin })).statusCode).toBe(200);
    expect((await w.call('GET', '/team', { cookie: viewer })).statusCode).toBe(403);
    await w.t.gateway.deps.notifier.flush();
    expect(await listOutbox(w.db, { to: 'eve@alpha.example' })).toEqual([]);
  });

  it("acts on the merchant's own users only, and refuses another site's POST", async () => {
    const bob = await idOf(w.users.bob);
    expect((await w.call('POST', `/team/users/${bob}/disable`, { cookie: ann })).statusCode).toBe(404);
    const csrf = await w.call('POST', '/team/invitations', {
      cookie: ann,
      body: { email: 'x@alpha.example', role: 'Viewer' },
      headers: { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(csrf.statusCode).toBe(403);
    const bad = await w.call('POST', '/team/invitations', {
      cookie: ann,
      body: { email: 'x@alpha.example', role: 'God' },
    });
    expect(bad.statusCode).toBe(400);
  });
});
