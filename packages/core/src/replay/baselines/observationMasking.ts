/**
 * Observation masking ("The Complexity Trap", 2025): tool results older than the last N agent
 * turns (model calls that used tools) are replaced by a pointer; the calls themselves stay.
 */
import type { IContent } from '../../services/history/IContent.js';
import { isReplaceable, replaceResults, resultSitesNewestFirst } from './replaceResults.js';

export const DEFAULT_MASKING_TURNS = 10;

/** Replacements that mask every result whose call is not among the newest `keepTurns` turns. */
export function maskOldObservations(
  history: readonly IContent[],
  keepTurns = DEFAULT_MASKING_TURNS,
): Map<number, IContent> {
  const recent = new Set<string>();
  let turns = 0;
  for (let index = history.length - 1; index >= 0 && turns < keepTurns; index--) {
    const entry = history[index];
    if (entry?.speaker !== 'ai') continue;
    const calls = entry.blocks.filter((block) => block.type === 'tool_call');
    if (calls.length === 0) continue;
    turns++;
    for (const call of calls) recent.add(call.id);
  }
  const old = resultSitesNewestFirst(history).filter(
    (site) => !recent.has(site.block.callId) && isReplaceable(site.block),
  );
  return replaceResults(history, old);
}
