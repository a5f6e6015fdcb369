/**
 * Compactions the recorded agent made itself: a summary entry (`metadata.isSummary`, set by the
 * importers for Claude Code's compact summaries, Codex `compacted` items and gemini-cli's
 * compression notes) after the session had other content. Replay feeds such a session across its
 * compaction with the whole earlier history, which the agent no longer had; the bench reports
 * these sessions apart (docs/replay.md). Pure.
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
