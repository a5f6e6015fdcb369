/**
 * `dense statusline`: the command Claude Code's `statusLine` setting runs. Passes the session JSON
 * Claude Code writes on stdin to the running proxy (`POST /dense/statusline`, which renders the
 * line) and prints its answer. Prints nothing and exits 0 when no proxy answers within the
 * deadline or the proxy does not know the session: a status line never shows an error.
 * Loaded by the `dense` executable before the rest of the CLI (start-up), and by the yargs
 * subcommand.
 */
import { postStatusLine } from './postStatusLine.js';
import { statuslineProxyUrl, statuslineToken } from './statuslineProxyUrl.js';

export interface StatuslineProcess {
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  readonly stdout: NodeJS.WritableStream;
  readonly env: NodeJS.ProcessEnv;
  /** The proxy's deadline (ms); default 150. */
  readonly timeoutMs?: number;
}

export const STATUSLINE_TIMEOUT_MS = 150;
const MAX_STDIN_BYTES = 1024 * 1024;

export const STATUSLINE_HELP = `Usage: dense statusline

Prints one line for Claude Code's status line: the context upstream vs the one Claude Code holds,
the session's saving so far and the compactions avoided, as the running dense proxy renders it
(DENSE_PROXY_URL, else a loopback ANTHROPIC_BASE_URL, else http://127.0.0.1:8787).
Reads Claude Code's session JSON on stdin; prints nothing when no proxy knows the session.

In ~/.claude/settings.json:
  {"statusLine": {"type": "command", "command": "dense statusline"}}
or, without starting Node each time (the proxy renders the line):
  {"statusLine": {"type": "command",
    "command": "curl -sf -m 1 --data-binary @- http://127.0.0.1:8787/dense/statusline || true"}}
`;

/** Stdin's text, or '' for a terminal or past `deadlineMs` (Claude Code writes it, then closes). */
function readStdin(stdin: StatuslineProcess['stdin'], deadlineMs: number): Promise<string> {
  if (stdin.isTTY === true) return Promise.resolve('');
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (text: string): void => {
      clearTimeout(timer);
      stdin.removeAllListeners('data');
      resolve(text);
    };
    const timer = setTimeout(() => finish(''), deadlineMs);
    stdin.on('data', (chunk: Buffer | string) => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > MAX_STDIN_BYTES) finish('');
      else chunks.push(bytes);
    });
    stdin.on('end', () => finish(Buffer.concat(chunks).toString('utf8')));
    stdin.on('error', () => finish(''));
  });
}

/** Runs `dense statusline`; resolves to 0 always (the line, or nothing, is on stdout). */
export async function runStatusline(
  argv: readonly string[],
  proc: StatuslineProcess,
): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    proc.stdout.write(STATUSLINE_HELP);
    return 0;
  }
  const timeoutMs = proc.timeoutMs ?? STATUSLINE_TIMEOUT_MS;
  const input = await readStdin(proc.stdin, 1_000);
  if (input.trim() === '') return 0;
  const token = statuslineToken(proc.env);
  const line = await postStatusLine(statuslineProxyUrl(proc.env), input, {
    timeoutMs,
    ...(token === undefined ? {} : { token }),
  });
  proc.stdout.write(line);
  return 0;
}
