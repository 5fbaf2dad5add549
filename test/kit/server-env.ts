/**
 * Variables laid over the environment of every Payframe process a test or a benchmark starts.
 *
 * TEST_SERVER_ENV: no env file. `payframe` reads `.env` from its working directory at start
 * (server/config.ts `loadEnvFile`); a developer's own `.env` in the clone must not change what a
 * test's server runs, so the servers the tests start read none.
 *
 * DEMO_SERVER_ENV: the same, and the demo (a merchant with a dashboard user, DATA_DIR/demo-merchant.json,
 * and the demo store) which only development starts by itself: for tests whose server is the demo's.
 */
export const TEST_SERVER_ENV = { PAYFRAME_ENV_FILE: 'none' } as const;

export const DEMO_SERVER_ENV = { ...TEST_SERVER_ENV, PAYFRAME_DEMO: '1' } as const;
