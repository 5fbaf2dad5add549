import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['shared/**/*.test.ts', 'server/**/*.test.ts', 'widget/**/*.test.ts', 'scripts/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at a time even on a two-core machine (vitest's own default there is one): most
    // of a file's time is spent waiting on child processes, sockets and the database, and the unit
    // and storage phase took 1,155 s with two against 1,565 s with one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: ['./scripts/vitest-global-setup.ts'],
    reporters: ['default'],
  },
});
