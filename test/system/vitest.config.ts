import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { shared } from '../../vitest.config.ts';

/**
 * `npm run test:system`'s tier: real processes and long runs — the crash and fault suites, the
 * `payframe` command against running servers, the compiled server, nginx in front, the third-party
 * SOAP stacks. Each file in a process of its own (these start and kill children, and some run for
 * minutes).
 */
export default defineConfig({
  root: fileURLToPath(new URL('../..', import.meta.url)),
  test: {
    ...shared,
    include: ['test/system/**/*.test.ts'],
  },
});
