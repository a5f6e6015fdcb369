/**
 * Compactions the recorded agent made itself: a summary entry (`metadata.isSummary`, set by the
 * importers for Claude Code's compact summaries, Codex `compacted` items and gemini-cli's
 * compression notes) after the session had other content. The `recorded` policy resets the
 * history to such a summary; every other policy keeps it as the message the agent answered next
 * (docs/replay.md). A summary may also restate messages kept from before the boundary (Codex's
 * replacement history: the user messages, then the encrypted summary); `metadata.
 * keptMessageBlocks` names those blocks, so the compaction's own output is the rest. Pure.
 */
import type { IContent } from '../services/history/IContent.js';

export function countRecordedCompactions(contents: readonly IContent[]): number {
  let count = 0;
  let seenContent = false;
  for (const entry of contents) {
    if (entry.metadata?.isSummary === true) {
      if (seenContent) count++;
    } else seenContent = true;
  }
  return count;
}

/** A summary entry the agent wrote itself (whether it ends earlier content is the caller's to know). */
export function isRecordedSummary(entry: IContent): boolean {
  return entry.metadata?.isSummary === true;
}

/**
 * A summary of a compaction the user asked for (`/compact`), not one the client's threshold set
 * off (`metadata.compactionTrigger`, where the transcript says).
 */
export function isManualCompaction(entry: IContent): boolean {
  return isRecordedSummary(entry) && entry.metadata?.compactionTrigger === 'manual';
}

/** The indices of a summary's blocks that restate messages kept from before the boundary. */
function keptMessageBlocks(summary: IContent): ReadonlySet<number> {
  const kept = summary.metadata?.keptMessageBlocks;
  return new Set(
    Array.isArray(kept) ? kept.filter((index): index is number => Number.isInteger(index)) : [],
  );
}

/**
 * The text the recorded compaction wrote (what its summarization call output): the summary's text
 * blocks, less those restating kept messages, joined by newlines.
 */
export function recordedSummaryOutputText(summary: IContent): string {
  const kept = keptMessageBlocks(summary);
  return summary.blocks
    .filter((block, index) => block.type === 'text' && !kept.has(index))
    .map((block) => (block.type === 'text' ? block.text : ''))
    .join('\n');
}

/**
 * How long the user waited for the recorded compaction that wrote `summary` (ms): from the last
 * record before the boundary (`metadata.compactionStartedAt`) to the summary's recorded time.
 * `undefined` when the transcript does not record both.
 */
export function recordedCompactionWallMs(summary: IContent): number | undefined {
  const end = summary.metadata?.timestamp;
  const start = summary.metadata?.compactionStartedAt;
  if (typeof end !== 'number' || typeof start !== 'number') return undefined;
  if (!Number.isFinite(end) || !Number.isFinite(start) || end < start) return undefined;
  return end - start;
}

/** When the recorded compaction call started (ms since the epoch), if the transcript says. */
export function recordedCompactionStart(summary: IContent): number | undefined {
  const start = summary.metadata?.compactionStartedAt;
  return typeof start === 'number' && Number.isFinite(start) ? start : undefined;
}
