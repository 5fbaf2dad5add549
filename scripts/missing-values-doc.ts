// Writes docs/gateway.md's table of missing value-type elements from the contract
// (shared/contract/missing-values-doc.ts), between its markers:
//
//   node --import tsx scripts/missing-values-doc.ts
//
// shared/contract/missing-values.test.ts fails while the page and the contract differ.
import { readFileSync, writeFileSync } from 'node:fs';
import { missingValueTable, TABLE_END, TABLE_START } from '../shared/contract/missing-values-doc.ts';

const page = new URL('../docs/gateway.md', import.meta.url);
const text = readFileSync(page, 'utf8');
const start = text.indexOf(TABLE_START);
const end = text.indexOf(TABLE_END);
if (start < 0 || end < start) throw new Error(`docs/gateway.md has no ${TABLE_START} … ${TABLE_END}`);
writeFileSync(page, text.slice(0, start) + missingValueTable() + text.slice(end + TABLE_END.length));
