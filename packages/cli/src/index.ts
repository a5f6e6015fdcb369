#!/usr/bin/env node
/** The `dense` executable. */
import { cliVersion } from './version.js';

const args = process.argv.slice(2);
if (args.includes('--version') || args.includes('-v')) {
  process.stdout.write(`${cliVersion()}\n`);
} else {
  process.stdout.write(
    `dense ${cliVersion()} — the interactive agent is not built yet; try --version.\n`,
  );
}
