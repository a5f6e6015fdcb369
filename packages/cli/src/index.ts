#!/usr/bin/env node
/** The `dense` executable: runs `main` with the real process and exits with its code. */
import { main } from './main.js';

const code = await main({
  argv: process.argv.slice(2),
  io: {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    env: process.env,
    cwd: process.cwd(),
  },
});

// Provider SDKs may keep sockets open; leave once stdout has been written out.
if (process.stdout.writableNeedDrain) process.stdout.once('drain', () => process.exit(code));
else process.exit(code);
