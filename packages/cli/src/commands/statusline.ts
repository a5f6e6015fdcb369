/**
 * `dense statusline` as a yargs subcommand: listed by `dense --help`, run by `main`. The `dense`
 * executable itself dispatches `statusline` earlier, to `statusline/statuslineBin.ts`, for
 * start-up; both run the same function.
 */
import type { CliSubcommand } from '../args/CliSubcommand.js';
import { runStatusline } from '../statusline/statuslineBin.js';

export const statuslineCommand: CliSubcommand = {
  command: 'statusline',
  describe: "One line for Claude Code's statusLine setting: context, saving, compactions avoided",
  builder: (yargs) =>
    yargs.epilogue(
      'Reads the session JSON Claude Code writes on stdin; prints nothing when no dense proxy ' +
        'knows the session. In ~/.claude/settings.json: ' +
        '{"statusLine": {"type": "command", "command": "dense statusline"}}',
    ),
  run: (_args, io) => runStatusline([], { stdin: io.stdin, stdout: io.stdout, env: io.env }),
};
