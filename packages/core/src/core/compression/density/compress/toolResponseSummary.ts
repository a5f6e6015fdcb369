/**
 * The one line `compress()` leaves in place of a tool result: the tool, its key parameter from
 * the matching call, the outcome and a useful fact, e.g. `[read_file src/index.ts — success,
 * 245 lines]` or `[run_shell_command npm test — error: exit 1, "3 failed"]`.
 */
import type { ToolCallBlock, ToolResponseBlock } from '../../../../services/history/IContent.js';
import { recallSuffix } from '../../recallPointers.js';
import { clip } from './summaryText.js';
import { summaryFacts, summarySubject, toolKindOf } from './toolSummaryFacts.js';
import { resultText, shellExitCode } from '../toolResultText.js';

/** No summary line is longer than this. */
export const SUMMARY_MAX_CHARS = 200;
const ERROR_MAX = 80;

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
  const kind = toolKindOf(toolName, call?.parameters);
  // A density reply stands for the tool's own output: the line summarizes that output.
  const text =
    response.original !== undefined && response.error === undefined
      ? response.original
      : resultText(response.result);
  const subject = summarySubject(kind, call, workspaceRoot);
  const outcome = outcomeOf(response, kind === 'shell' ? shellExitCode(text) : undefined);
  const facts = summaryFacts(kind, call, text);
  const head = subject === undefined ? toolName : `${toolName} ${subject}`;
  const tail = [outcome, ...facts].join(', ');
  const suffix = recallId === undefined ? '' : recallSuffix(recallId);
  const max = SUMMARY_MAX_CHARS - suffix.length;
  const body = `[${head} — ${tail}`;
  const clipped = body.length + 1 <= max ? body : `${body.slice(0, max - 2)}…`;
  return `${clipped}${suffix}]`;
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
    result.length <= SUMMARY_MAX_CHARS &&
    result.startsWith('[') &&
    result.endsWith(']') &&
    !result.includes('\n')
  );
}
