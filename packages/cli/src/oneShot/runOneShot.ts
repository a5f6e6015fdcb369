/**
 * `dense -p` and piped prompts: one turn, the final answer alone on stdout, tool progress and
 * notices on stderr. Exit code 0 when the turn completes, 1 when it fails (provider error, context
 * overflow, cancel). Ctrl-C (SIGINT) cancels the turn.
 */
import { describeRetry } from '../format/describeRetry.js';
import { expandAtReferences } from '../at/expandAtReferences.js';
import { EXIT, type ExitCode } from '../cliErrors.js';
import { describeToolCall, toolOutcome, toolResultLine } from '../format/describeToolCall.js';
import { describeTurnError } from '../format/describeTurnError.js';
import type { CliSession } from '../session/CliSession.js';

export interface OneShotIO {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  /** Called with a cancel function while the turn runs; returns an unsubscribe (SIGINT wiring). */
  readonly onInterrupt?: (cancel: () => void) => () => void;
}

const MARK = { done: '✓', error: '✗', denied: '⊘', cancelled: '⊘' } as const;

export async function runOneShot(
  cli: CliSession,
  prompt: string,
  io: OneShotIO,
): Promise<ExitCode> {
  const expansion = await expandAtReferences(prompt, { workspaceRoot: cli.workspaceRoot });
  for (const notice of expansion.notices) io.stderr.write(`dense: ${notice}\n`);
  const controller = new AbortController();
  const release = io.onInterrupt?.(() => controller.abort()) ?? (() => undefined);
  // Session notices (e.g. the recording could not be written) are the user's to know, here too.
  const stopNotices = cli.onNotice((message) => io.stderr.write(`dense: ${message}\n`));
  try {
    const turn = cli.session.send(expansion.message, { signal: controller.signal });
    for (;;) {
      const next = await turn.next();
      if (next.done) {
        const answer = next.value.text;
        io.stdout.write(answer.endsWith('\n') ? answer : `${answer}\n`);
        return EXIT.ok;
      }
      const event = next.value;
      if (event.type === 'retry') io.stderr.write(`${describeRetry(event.retry)}\n`);
      if (event.type === 'tool_call') io.stderr.write(`→ ${describeToolCall(event.call)}\n`);
      if (event.type === 'tool_result') {
        const outcome = toolOutcome(event.response);
        const detail = outcome === 'done' ? '' : ` ${toolResultLine(event.response)}`;
        io.stderr.write(`  ${MARK[outcome]} ${event.call.name}${detail}\n`);
      }
    }
  } catch (error) {
    io.stderr.write(`dense: ${describeTurnError(error).message}\n`);
    return EXIT.failed;
  } finally {
    stopNotices();
    release();
  }
}
