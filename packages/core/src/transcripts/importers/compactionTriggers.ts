/**
 * Who asked for each Claude Code compaction: the user (`/compact`) or the client (its automatic
 * threshold). Claude Code 2.x writes a `compact_boundary` system line before the summary whose
 * `compactMetadata.trigger` says `manual` or `auto`. 1.0.x writes no boundary; a compaction the user
 * asked for leaves the `/compact` command's own user line (`<command-name>/compact</command-name>`)
 * among the records between the model reply before the summary and the one after it (it may be
 * written before or after the summary line). A `/compact` the user cancelled is followed by a model
 * line ("No response requested.") before the summary, so it falls outside that span.
 * Pure: returns each compact summary line's trigger, keyed by the line, where the file says.
 */
import { isParams } from '../toolAliases.js';
import { textsOf } from './claudeCodeBlocks.js';

type Json = Readonly<Record<string, unknown>>;

export type CompactionTrigger = 'manual' | 'auto';

const COMMAND = '<command-name>/compact</command-name>';

function boundaryTrigger(record: Json): CompactionTrigger | undefined {
  if (record.type !== 'system' || record.subtype !== 'compact_boundary') return undefined;
  const trigger = isParams(record.compactMetadata) ? record.compactMetadata.trigger : undefined;
  return trigger === 'manual' || trigger === 'auto' ? trigger : undefined;
}

function isCompactCommand(record: Json): boolean {
  return record.type === 'user' && textsOf(record).some((text) => text.includes(COMMAND));
}

/** The records from the model reply before `at` (exclusive) to the one after it (exclusive). */
function compactionSpan(records: readonly Json[], at: number): readonly Json[] {
  let start = at;
  while (start > 0 && records[start - 1]?.type !== 'assistant') start--;
  let end = at + 1;
  while (end < records.length && records[end]?.type !== 'assistant') end++;
  return records.slice(start, end);
}

export function compactionTriggers(records: readonly Json[]): ReadonlyMap<Json, CompactionTrigger> {
  const triggers = new Map<Json, CompactionTrigger>();
  for (const [at, record] of records.entries()) {
    if (record.isCompactSummary !== true) continue;
    const span = compactionSpan(records, at);
    const recorded = span.map(boundaryTrigger).find((trigger) => trigger !== undefined);
    if (recorded !== undefined) triggers.set(record, recorded);
    else if (span.some(isCompactCommand)) triggers.set(record, 'manual');
  }
  return triggers;
}
