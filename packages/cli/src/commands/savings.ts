/**
 * `dense savings`: what Dense would have saved on the user's own agent sessions, replayed offline
 * from where Claude Code, Codex and gemini-cli keep their transcripts (packages/cli/src/savings/).
 * Never touches the network.
 */
import type { Argv } from 'yargs';
import path from 'node:path';
import type { CliSubcommand } from '../args/CliSubcommand.js';
import { EXIT } from '../cliErrors.js';
import { parseSince, SavingsUsageError } from '../savings/parseSince.js';
import { runSavings, type SavingsOptions } from '../savings/runSavings.js';

const DEFAULT_SINCE = '30d';

function stringsOf(value: unknown): string[] {
  const list: unknown[] = value === undefined ? [] : Array.isArray(value) ? value : [value];
  return list.map(String).filter((entry) => entry !== '');
}

/** The options from yargs' arguments; a `SavingsUsageError` for a bad `--since`. */
export function parseSavingsArgs(
  args: Readonly<Record<string, unknown>>,
  cwd: string,
): SavingsOptions {
  const since = typeof args.since === 'string' ? args.since : DEFAULT_SINCE;
  const report = typeof args.report === 'string' && args.report !== '' ? args.report : undefined;
  return {
    paths: stringsOf(args.path),
    sinceMs: parseSince(since),
    since,
    ...(report === undefined ? {} : { report: path.resolve(cwd, report) }),
  };
}

export const savingsCommand: CliSubcommand = {
  command: 'savings',
  describe: 'What Dense would have saved on your own Claude Code, Codex and gemini-cli sessions',
  builder: (yargs: Argv) =>
    yargs
      .option('since', {
        type: 'string',
        default: DEFAULT_SINCE,
        describe: "Only transcripts modified this recently (by file time): 30d, 12h, 2w or 'all'",
      })
      .option('path', {
        type: 'string',
        requiresArg: true,
        describe:
          'A transcript file or folder to replay instead of the clients’ own folders; repeatable',
      })
      .option('report', {
        type: 'string',
        requiresArg: true,
        describe: 'Also write a self-contained HTML page with the figures and charts',
      })
      .epilogue(
        'Looks in $CLAUDE_CONFIG_DIR/projects (default ~/.claude/projects), $CODEX_HOME/sessions ' +
          '(default ~/.codex/sessions) and ~/.gemini/tmp/*/chats. Nothing leaves this machine.',
      ),
  async run(args, io) {
    try {
      return await runSavings(parseSavingsArgs(args, io.cwd), io);
    } catch (error) {
      if (!(error instanceof SavingsUsageError)) throw error;
      io.stderr.write(`dense savings: ${error.message}\n`);
      return EXIT.usage;
    }
  },
};
