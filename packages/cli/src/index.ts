#!/usr/bin/env node
/**
 * The `dense` executable: runs `main` with the real process and exits with its code. `dense recall`
 * and `dense statusline` are dispatched first to their own small modules, before the rest of the
 * CLI is imported (start-up).
 */
const argv = process.argv.slice(2);

async function run(): Promise<number> {
  if (argv[0] === 'recall') {
    const { runRecallBin } = await import('./recall/recallBin.js');
    const { stdout, stderr, env } = process;
    return runRecallBin(argv.slice(1), { stdout, stderr, env });
  }
  if (argv[0] === 'statusline') {
    const { runStatusline } = await import('./statusline/statuslineBin.js');
    const { stdin, stdout, env } = process;
    return runStatusline(argv.slice(1), { stdin, stdout, env });
  }
  const { main } = await import('./main.js');
  const { stdin, stdout, stderr, env } = process;
  return main({ argv, io: { stdin, stdout, stderr, env, cwd: process.cwd() } });
}

const code = await run();

// Provider SDKs may keep sockets open; leave once stdout has been written out.
if (process.stdout.writableNeedDrain) process.stdout.once('drain', () => process.exit(code));
else process.exit(code);
