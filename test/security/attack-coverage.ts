/**
 * Where each attack row is proven (issue: "every attack line as a test, or a written reason").
 *
 * The rows are those of docs/security.md:
 * - `payframe`: "Attack table: checkout, widget and gateway";
 * - `xml`: "Attack table: XML sent to the Transaction Service".
 *
 * Each row names the tests that prove its safe outcome (file + an exact substring of the `it()` /
 * `test()` title), or says why no test applies. attack-coverage.test.ts reads both tables from
 * docs/security.md and fails when a row is missing here, a file does not exist, a title is not in
 * its file, or a reason is too short to be a reason.
 */
import { payframeAttacks } from './attack-coverage-payframe.ts';
import { xmlAttacks } from './attack-coverage-xml.ts';
import type { AttackTable, Coverage } from './coverage-model.ts';

export type { AttackTable, Coverage, TestRef } from './coverage-model.ts';

export const attackCoverage: Record<AttackTable, Record<number, Coverage>> = {
  payframe: payframeAttacks,
  xml: xmlAttacks,
};
