import { availableParallelism } from 'node:os';
import { defineConfig, type ViteUserConfig } from 'vitest/config';

/**
 * `npm test`'s tier: unit tests, storage tests on PGlite (and PostgreSQL with TEST_DATABASE_URL),
 * route and SOAP tests through the app in this process. What starts real servers, crashes them or
 * runs third-party tools is the system tier (test/system/vitest.config.ts, `npm run test:system`).
 */
export const shared: NonNullable<ViteUserConfig['test']> = {
  environment: 'node',
  testTimeout: 30_000,
  hookTimeout: 60_000,
  pool: 'forks',
  // Two test files at a time even on a two-core machine (vitest's own default there is one): most
  // of a file's time is spent waiting on sockets and the database.
  maxWorkers: Math.max(2, availableParallelism() - 1),
  globalSetup: ['./scripts/vitest-global-setup.ts'],
  reporters: ['default'],
};

export default defineConfig({
  test: {
    ...shared,
    include: [
      'shared/**/*.test.ts',
      'server/**/*.test.ts',
      'widget/**/*.test.ts',
      'scripts/**/*.test.ts',
      'test/**/*.test.ts',
    ],
    exclude: ['test/system/**', '**/node_modules/**'],
    // The files of one worker share its module cache: importing the app's graph once per worker
    // rather than once per file took the tier from 712 s to 539 s on this machine. Nothing here
    // mocks modules or changes process.env, and each file builds its own app and databases.
    isolate: false,
  },
});
