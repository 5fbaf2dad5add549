/**
 * Test support: the plan PostgreSQL (or PGlite) chooses for each statement a function makes, with
 * that statement's own parameters, so a test can pin that a read goes through its index.
 */
import type { Database, Queryable } from '../../server/db/database.ts';

/** Runs `run` on `db`, then explains each statement it issued; one plan (as text) per statement. */
export async function queryPlans(db: Database, run: (q: Queryable) => Promise<unknown>): Promise<string[]> {
  const seen: { sql: string; params: readonly unknown[] }[] = [];
  const spy = {
    query: (sql: string, params?: readonly unknown[]) => {
      seen.push({ sql, params: params ?? [] });
      return db.query(sql, params);
    },
  } as Queryable;
  await run(spy);
  const plans: string[] = [];
  for (const { sql, params } of seen) {
    const { rows } = await db.query<{ 'QUERY PLAN': string }>(`explain ${sql}`, params);
    plans.push(rows.map((r) => r['QUERY PLAN']).join('\n'));
  }
  return plans;
}
