/**
 * Node arguments that run the compiled server as `npm start` does (package.json), for a test that
 * starts a server of its own beside the one playwright.config.ts starts with `npm start`.
 */
export const COMPILED_SERVER = ['--enable-source-maps', 'dist/server/payframe.js'];
