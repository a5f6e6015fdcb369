/**
 * The one line `compress()` leaves in place of a tool result: the tool, its key parameter from
 * the matching call, the outcome and a useful fact, e.g. `[read_file src/index.ts — success,
 * 245 lines]` or `[run_shell_command npm test — error: exit 1, "3 failed"]`.
 */
import type { ToolCallBlock, ToolResponseBlock } from '../../../../services/history/IContent.js';
import { recallSuffix } from '../../recallPointers.js';
import { clip } from './summaryText.js';
import { summaryFacts, summarySubject, toolKindOf } from './toolSummaryFacts.js';
import { firstErrorLine } from '../shellOutputLines.js';
import { resultText, shellExitCode } from '../toolResultText.js';

/** No summary line of a result that succeeded is longer than this. */
export const SUMMARY_MAX_CHARS = 200;
/**
 * A failed result's line may be this long: it quotes a failed run's first error line, up to
 * `ERROR_LINE_MAX` characters, since that line is what the agent acts on next.
 */
export const FAILED_SUMMARY_MAX_CHARS = 360;
const ERROR_LINE_MAX = 160;
/** An error result's own text, from its start (measured: 160 showed no more failures, less else). */
const ERROR_MAX = 80;

/** The tool's kind, the output a summary reads and a shell run's exit code. */
function responseOutcome(response: ToolResponseBlock, call: ToolCallBlock | undefined) {
  const kind = toolKindOf(clip(call?.name ?? response.toolName, 40), call?.parameters);
  // A density reply stands for the tool's own output: the line summarizes that output.
  const text =
    response.original !== undefined && response.error === undefined
      ? response.original
      : resultText(response.result);
  const exitCode = kind === 'shell' ? shellExitCode(text) : undefined;
  return { kind, text, exitCode };
}

/** Whether `response` failed: an error result, or a shell run that exited other than 0. */
export function responseFailed(
  response: ToolResponseBlock,
  call: ToolCallBlock | undefined,
): boolean {
  const { exitCode } = responseOutcome(response, call);
  return response.error !== undefined || (exitCode !== undefined && exitCode !== 0);
}

/**
 * Summarizes `response` (answering `call`, when known) in one line of at most
 * `SUMMARY_MAX_CHARS`; with `recallId`, the line ends by naming it. Display paths are relative to `workspaceRoot` when inside it.
 */
export function summarizeToolResponse(
  response: ToolResponseBlock,
  call: ToolCallBlock | undefined,
  workspaceRoot: string,
  recallId?: string,
): string {
  const toolName = clip(call?.name ?? response.toolName, 40);
  const { kind, text, exitCode } = responseOutcome(response, call);
  const subject = summarySubject(kind, call, workspaceRoot);
  const outcome = outcomeOf(response, exitCode);
  const facts = summaryFacts(kind, call, text);
  const failedRun = exitCode !== undefined && exitCode !== 0;
  if (failedRun) facts.unshift(...errorLineFact(text, facts));
  const head = subject === undefined ? toolName : `${toolName} ${subject}`;
  const tail = [outcome, ...facts].join(', ');
  const suffix = recallId === undefined ? '' : recallSuffix(recallId);
  const failed = failedRun || response.error !== undefined;
  const max = (failed ? FAILED_SUMMARY_MAX_CHARS : SUMMARY_MAX_CHARS) - suffix.length;
  const body = `[${head} — ${tail}`;
  const clipped = body.length + 1 <= max ? body : `${body.slice(0, max - 2)}…`;
  return `${clipped}${suffix}]`;
}

/** What a line `summarizeToolResponse` wrote with a recall id says, read back. */
export interface SummaryLineFacts {
  readonly toolName: string;
  /** The call's key parameter as the line shows it (a command clipped, a path). */
  readonly subject: string;
  /** `ok`, `exit N` for a shell run that exited N, or `failed`. */
  readonly status: string;
  readonly recallId: string;
}

/**
 * `[tool subject — outcome, facts…; recall id r…]`: the subject ends at the first ` — ` an outcome
 * follows (a subject that itself holds ` — success` is read short).
 */
const SUMMARY_LINE =
  /^\[(\S+) (.+?) — (success|error: exit (-?\d+)|error)\b[^\n]*?; recall id (r[0-9a-f]{10})\]/;

/**
 * The facts of a one-line summary that names its recall id (the line a later compaction finds
 * among an earlier summary's turns); undefined for any other text.
 */
export function readSummaryLine(line: string): SummaryLineFacts | undefined {
  const match = line.startsWith('[') ? SUMMARY_LINE.exec(line) : null;
  if (match === null) return undefined;
  const exit = match[4];
  const status = match[3] === 'success' ? 'ok' : exit === undefined ? 'failed' : `exit ${exit}`;
  return {
    toolName: match[1] as string,
    subject: match[2] as string,
    status,
    recallId: match[5] as string,
  };
}

/**
 * The first line of a failed run's output that reads as an error, as `first error: <line>`
 * (unquoted, so the line reads as the output has it); none when the quoted fact already shows it.
 */
function errorLineFact(text: string, facts: readonly string[]): string[] {
  const line = firstErrorLine(text);
  if (line === '' || facts.some((fact) => fact.includes(line.slice(0, 40)))) return [];
  return [`first error: ${clip(line, ERROR_LINE_MAX)}`];
}

function outcomeOf(response: ToolResponseBlock, exitCode: number | undefined): string {
  if (exitCode !== undefined && exitCode !== 0) return `error: exit ${exitCode}`;
  if (response.error !== undefined) {
    const message = clip(response.original ?? response.error, ERROR_MAX);
    return message === '' ? 'error' : `error: ${message}`;
  }
  return 'success';
}

/**
 * Whether a result is already a compact one-liner (a summary or the pruned pointer), which
 * `compress()` leaves alone so that compressing twice changes nothing more.
 */
export function isCompactSummary(result: unknown): boolean {
  return (
    typeof result === 'string' &&
    result.length <= FAILED_SUMMARY_MAX_CHARS &&
    result.startsWith('[') &&
    result.endsWith(']') &&
    !result.includes('\n')
  );
}
