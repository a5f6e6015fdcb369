/**
 * Split points that never separate a tool call from its response. Calls and responses are
 * paired by position (`pairToolCallsByPosition`), not by adjacency and not by id alone: a pair
 * may have other entries between them, and a server that reuses an id makes two separate pairs.
 */
import type { IContent } from '../../services/history/IContent.js';
import { pairToolCallsByPosition } from '../../services/history/toolCallPairing.js';

/**
 * For each split point j in [0, n], whether cutting the history into [0, j) and [j, n) keeps every
 * call together with its response. 0 and n are always safe.
 */
export function safeSplitPoints(history: readonly IContent[]): boolean[] {
  const spans: { first: number; last: number }[] = [];
  for (const call of pairToolCallsByPosition(history).calls) {
    const last = call.responses.at(-1)?.entryIndex;
    if (last !== undefined) spans.push({ first: call.entryIndex, last });
  }
  // Split j is unsafe when some pair has first < j <= last: mark (first, last] with a difference array.
  const delta = new Int32Array(history.length + 2);
  for (const { first, last } of spans) {
    if (last > first) {
      delta[first + 1] = (delta[first + 1] ?? 0) + 1;
      delta[last + 1] = (delta[last + 1] ?? 0) - 1;
    }
  }
  const safe: boolean[] = [];
  let open = 0;
  for (let j = 0; j <= history.length; j++) {
    open += delta[j] ?? 0;
    safe.push(open === 0);
  }
  return safe;
}

export type SplitDirection = 'earlier' | 'later';

/**
 * The safe split point closest to `index` in the given direction (`index` is clamped to [0, n]).
 * `earlier` (the default) moves the split toward the start, so a preserved tail grows to hold a
 * pair whole rather than lose it; `later` moves it toward the end. Both ends are always safe.
 */
export function adjustForToolCallBoundary(
  history: readonly IContent[],
  index: number,
  direction: SplitDirection = 'earlier',
): number {
  const safe = safeSplitPoints(history);
  let j = Math.min(Math.max(Math.trunc(index), 0), history.length);
  const step = direction === 'earlier' ? -1 : 1;
  while (!safe[j]) j += step;
  return j;
}
