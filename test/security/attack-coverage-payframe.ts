/**
 * Attack table: checkout, widget and gateway (docs/security.md): where each row is proven; see
 * attack-coverage.ts. The rows are kept in two files by topic (rows 1–23, rows 24–48).
 */
import type { Coverage } from './coverage-model.ts';
import { payframeDataRows } from './attack-coverage-payframe-data.ts';
import { payframePayRows } from './attack-coverage-payframe-pay.ts';

export const payframeAttacks: Record<number, Coverage> = { ...payframePayRows, ...payframeDataRows };
