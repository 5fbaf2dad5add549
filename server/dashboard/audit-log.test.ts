/**
 * The dashboard's audit log (issue 16; audit-routes.ts), through the real app on both databases: a
 * user reads its own merchant's users' events — a refund it made, with its name and address — never
 * another merchant's; the filters narrow it; pages follow the last event id; the CSV export pages
 * through everything with the same filters; a session without its second factor reads nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, card, pay } from '../../test/kit/gateway/gateway-kit.ts';
import { recordAudit, userResource } from '../gateway/users/audit.ts';
import { findUserByName } from '../gateway/users/user-store.ts';
import { databaseTargets } from '../../test/kit/databases.ts';
import { AUDIT_CSV_HEADER, type AuditEventView } from './audit-routes.ts';
import { CSV_PAGE_SIZE } from './payments-csv.ts';
import { type DashboardWorld, openDashboardWorld } from '../../test/kit/dashboard/dashboard-world.ts';

describe.each(databaseTargets())('dashboard audit log on $name', (target) => {
  let w: DashboardWorld;
  let ann: string;
  let bob: string;
  let sale: string;
  const events = async (query = '', cookie = ann): Promise<AuditEventView[]> => {
    const res = await w.call('GET', `/audit-log${query}`, { cookie });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().events;
  };

  beforeAll(async () => {
    w = await openDashboardWorld(target);
    ann = await w.signInVerified(w.users.ann);
    bob = await w.signInVerified(w.users.bob);
    sale = (await call(w.t.app, 'ProcessTransaction', pay(w.a, card('4242424242424242', '20.00')), w.a.as))
      .TransactionID!;
    const refund = await w.call('POST', `/payments/${sale}/refund`, {
      cookie: ann,
      body: { amount: '7.50' },
    });
    expect(refund.json()).toMatchObject({ approved: true });
  });
  afterAll(() => w.close());

  it('shows the refund with the user who made it and its address, newest first', async () => {
    const [newest, ...rest] = await events();
    expect(newest).toMatchObject({
      actor: 'ann.admin',
      action: 'operation.ProcessTransaction',
      outcome: 'Success',
      origin: '203.0.113.50',
      subject: null,
    });
    expect(newest!.detail).toEqual(
      expect.arrayContaining([
        { name: 'TransactionType', value: 'refund' },
        { name: 'OriginalTransactionID', value: sale },
        { name: 'Amount', value: '7.50' },
      ]),
    );
    expect(rest.map((e) => e.action)).toEqual(['user.second_factor_enrolled', 'user.login']);
    expect(rest.every((e) => e.actor === 'ann.admin')).toBe(true);
    // Bob's merchant's log has Bob's events only.
    const bobs = await events('', bob);
    expect(bobs.length).toBeGreaterThan(0);
    expect(bobs.every((e) => e.actor === 'bob.books')).toBe(true);
  });

  it('filters by action, user, outcome and day; refuses a filter it cannot read', async () => {
    expect((await events('?action=operation.')).map((e) => e.action)).toEqual([
      'operation.ProcessTransaction',
    ]);
    // Each read of the log is itself recorded (PCI DSS 10.2.1.3).
    expect((await events('?action=audit_log.read')).length).toBeGreaterThan(0);
    expect(await events('?user=bob.books')).toEqual([]);
    expect((await events('?user=ANN.ADMIN')).length).toBeGreaterThan(1);
    expect(await events('?outcome=Failure')).toEqual([]);
    const today = w.clock.now.toISOString().slice(0, 10);
    expect((await events(`?from=${today}&to=${today}`)).length).toBeGreaterThan(1);
    expect(await events('?to=2000-01-01')).toEqual([]);
    for (const bad of ['?outcome=Maybe', '?limit=0', '?after=x', '?from=yesterday', '?colour=red']) {
      expect((await w.call('GET', `/audit-log${bad}`, { cookie: ann })).statusCode, bad).toBe(400);
    }
  });

  it('pages by the last event id', async () => {
    const all = await events();
    const first = (await w.call('GET', '/audit-log?limit=2', { cookie: ann })).json();
    expect(first.hasMore).toBe(true);
    // Newest: the read of `all` itself, then what `all` began with.
    expect(first.events.map((e: AuditEventView) => e.action)[0]).toBe('audit_log.read');
    expect(first.events[1].id).toBe(all[0]!.id);
    const second = (await w.call('GET', `/audit-log?limit=2&after=${all[1]!.id}`, { cookie: ann })).json();
    expect(second.events.map((e: AuditEventView) => e.id)).toEqual(all.slice(2, 4).map((e) => e.id));
  });

  it('exports every event as CSV, a page at a time, with the same filters', async () => {
    // More than one page of failures about Ann, recorded as Login records them.
    const id = (await findUserByName(w.db, w.users.ann))!.id;
    for (let i = 0; i < CSV_PAGE_SIZE + 3; i++) {
      await recordAudit(w.db, {
        actor: userResource(id),
        resource: userResource(id),
        action: 'user.login',
        outcome: 'failure',
        origin: '198.51.100.7',
        detail: { reason: 'password' },
        at: w.clock.now,
      });
    }
    const res = await w.call('GET', '/audit-log/export.csv?outcome=Failure', { cookie: ann });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="audit-log.csv"');
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe(AUDIT_CSV_HEADER.join(','));
    expect(lines.at(-1)).toBe('');
    const rows = lines.slice(1, -1);
    expect(rows).toHaveLength(CSV_PAGE_SIZE + 3);
    expect(rows[0]).toMatch(
      /^\d+,\d{4}-\d\d-\d\dT[\d:.]+Z,ann\.admin,user\.login,Failure,198\.51\.100\.7,,reason=password$/,
    );
    const everything = await w.call('GET', '/audit-log/export.csv', { cookie: ann });
    expect(everything.body).toContain('operation.ProcessTransaction');
    expect(everything.body).not.toContain('bob.books');
  });

  it('answers nothing to a session without its second factor', async () => {
    const unverified = await w.signIn(w.users.ann);
    for (const path of ['/audit-log', '/audit-log/export.csv']) {
      const res = await w.call('GET', path, { cookie: unverified });
      expect(res.statusCode, path).toBeGreaterThanOrEqual(400);
      expect(res.body).not.toContain('ann.admin');
    }
  });
});
