/**
 * A DATABASE_URL naming several servers (postgres-hosts.ts): how it is read, and on the test server
 * behind a port nobody listens on, which one a connection goes to. On a private primary with its
 * standby, how the pool follows a failover and a server turned read-only:
 * test/system/postgres-failover-hosts.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { testDatabaseUrl } from '../config.ts';
import { freePort } from '../../test/kit/net.ts';
import { openPostgres } from './postgres.ts';
import { describePostgresUrl, parsePostgresUrl } from './postgres-hosts.ts';

describe('parsePostgresUrl', () => {
  it('reads each host and port in order, 5432 when none is written', () => {
    const url = parsePostgresUrl(
      'postgres://app:s3cret@db1.internal:6432,db2.internal,[::1]:5433/payframe?sslmode=require&target_session_attrs=read-write',
    );
    expect(url.hosts).toEqual([
      { host: 'db1.internal', port: 6432 },
      { host: 'db2.internal', port: 5432 },
      { host: '::1', port: 5433 },
    ]);
    expect(url.targetSessionAttrs).toBe('read-write');
    // What `pg` is given: one host, the rest of the URL as written, without target_session_attrs.
    expect(url.urlFor(url.hosts[1]!)).toBe(
      'postgres://app:s3cret@db2.internal:5432/payframe?sslmode=require',
    );
  });

  it('takes a one-server URL as before, target_session_attrs any by default', () => {
    const url = parsePostgresUrl('postgresql://postgres@127.0.0.1/test');
    expect(url.hosts).toEqual([{ host: '127.0.0.1', port: 5432 }]);
    expect(url.targetSessionAttrs).toBe('any');
    expect(url.urlFor(url.hosts[0]!)).toBe('postgresql://postgres@127.0.0.1:5432/test');
  });

  it('refuses what it cannot honour, without echoing the password', () => {
    expect(() => parsePostgresUrl('postgres://u:pw@h1/db?target_session_attrs=standby')).toThrow(
      /target_session_attrs=standby is not supported/,
    );
    expect(() => parsePostgresUrl('postgres://u:pw@h1:99999/db')).toThrow(/cannot read the host "h1:99999"/);
  });

  it('describes the servers without the user or the password', () => {
    expect(
      describePostgresUrl('postgres://app:s3cret@h1:5432,h2:5433/payframe?target_session_attrs=read-write'),
    ).toBe('h1:5432,h2:5433/payframe');
  });
});

const testUrl = testDatabaseUrl();

describe.skipIf(!testUrl)(
  `several hosts on the test server${testUrl ? '' : ' (skipped: TEST_DATABASE_URL is not set)'}`,
  () => {
    it('skips a server that does not answer and connects to the next', async () => {
      const u = new URL(testUrl!);
      const dead = await freePort();
      const url = `postgres://${u.username}@127.0.0.1:${dead},${u.hostname}:${u.port || 5432}${u.pathname}?target_session_attrs=read-write`;
      const db = await openPostgres({ url, poolSize: 2 });
      try {
        const { rows } = await db.query<{ port: number }>('select inet_server_port() as port');
        expect(rows[0]?.port).toBe(Number(u.port || 5432));
      } finally {
        await db.close();
      }
    });
  },
);
