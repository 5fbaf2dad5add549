/** The shape of the attack coverage tables (attack-coverage.ts). */

export interface TestRef {
  /**
   * Repository-relative path of a Vitest (`*.test.ts`, or a `*.suite.ts` a test file imports) or
   * Playwright (`e2e/*.spec.ts`) file.
   */
  file: string;
  /** An exact substring of one test title in that file. */
  name: string;
}

export type Coverage =
  | {
      tests: readonly TestRef[];
      /** What the tests leave to something else, when part of the row is not the app's. */
      remaining?: string;
    }
  | { notApplicable: string }
  | { outOfScope: string };

export type AttackTable = 'payframe' | 'xml';

export const t = (file: string, name: string): TestRef => ({ file, name });
