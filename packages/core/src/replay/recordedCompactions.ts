/**
 * Compactions the recorded agent made itself: a summary entry (`metadata.isSummary`, set by the
 * importers for Claude Code's compact summaries, Codex `compacted` items and gemini-cli's
 * compression notes) after the session had other content. The `recorded` policy resets the
 * history to such a summary; every other policy keeps it as the message the agent answered next
 * (docs/replay.md). Pure.
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
