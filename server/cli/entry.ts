/**
 * The process entry of the `payframe` command: runs it with the process's arguments and leaves the
 * exit code. `npm run build` compiles Payframe from here into dist/server/payframe.js (what
 * `npm start` runs); bin/payframe.js loads this file through tsx in a development checkout.
 */
import { main } from './main.ts';

const code = await main(process.argv.slice(2));
if (code !== 'running') process.exitCode = code;
