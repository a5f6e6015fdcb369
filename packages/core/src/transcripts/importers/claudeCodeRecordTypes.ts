/**
 * The record types a Claude Code session file holds, as data: which lines are conversation and
 * which are known bookkeeping that the importer counts and leaves out. Claude Code 2.1.97 and
 * later start a file with a `permission-mode` line, and 2.x adds titles, prompts and attachments
 * around the messages; a type not listed here is counted as unknown so `checkImport` can notice a
 * file whose records were mostly not read.
 */

/** Lines that carry the conversation (messages, and attachments sent to the model with them). */
export const CLAUDE_CODE_MESSAGE_TYPES: ReadonlySet<string> = new Set([
  'user',
  'assistant',
  'attachment',
]);

/**
 * Known lines that are not conversation: the session's title, its permission mode, the last
 * prompt the input box held, file-history snapshots, progress of running tools, the input queue,
 * and system notes (turn durations, compaction boundaries, hook summaries, away summaries shown
 * only in the terminal).
 */
export const CLAUDE_CODE_METADATA_TYPES: readonly string[] = [
  'permission-mode',
  'ai-title',
  'custom-title',
  'last-prompt',
  'summary',
  'file-history-snapshot',
  'progress',
  'queue-operation',
  'system',
];

const METADATA: ReadonlySet<string> = new Set(CLAUDE_CODE_METADATA_TYPES);

/**
 * The reason a known non-message line is counted under (a system line by its subtype);
 * `undefined` for a line type not known here.
 */
export function ignoredLineReason(type: unknown, subtype: unknown): string | undefined {
  if (typeof type !== 'string' || !METADATA.has(type)) return undefined;
  return type === 'system' && typeof subtype === 'string'
    ? `system ${subtype} line`
    : `${type} line`;
}
