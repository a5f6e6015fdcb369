/**
 * Split points that never separate a tool call from its responses. Calls and responses are
 * matched by id, not by adjacency: a pair may have other entries between them.
 */
import type { IContent } from '../../services/history/IContent.js';

/**
 * For each split point j in [0, n], whether cutting the history into [0, j) and [j, n) keeps every
 * call together with all of its responses. 0 and n are always safe.
 */
export function safeSplitPoints(history: readonly IContent[]): boolean[] {
  const span = new Map<string, { first: number; last: number }>();
  history.forEach((entry, index) => {
    for (const block of entry.blocks) {
      const id =
        block.type === 'tool_call'
          ? block.id
          : block.type === 'tool_response'
            ? block.callId
            : undefined;
      if (id === undefined) continue;
      const known = span.get(id);
      if (known) known.last = index;
      else span.set(id, { first: index, last: index });
    }
  });
  // Split j is unsafe when some id has first < j <= last: mark (first, last] with a difference array.
  const delta = new Int32Array(history.length + 2);
  for (const { first, last } of span.values()) {
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
