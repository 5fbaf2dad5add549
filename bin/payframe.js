#!/usr/bin/env node
// The `payframe` command. Payframe's server is TypeScript run through tsx's loader.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../server/cli/main.ts');
const code = await main(process.argv.slice(2));
if (code !== 'running') process.exitCode = code;
