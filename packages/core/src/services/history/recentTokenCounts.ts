/**
 * A token counter that remembers the counts of the last few texts it was asked for. A tool output
 * on its way into a live session is measured against the output cap, weighed against a reply at
 * entry, and counted once more when its entry joins the history: the same text up to three times
 * within one step. With this wrapper it is tokenized once. Counts are exactly the wrapped
 * counter's; a failed count is not remembered. (`memoTokenCounter` is the replay's unbounded,
 * digest-keyed memo; this one holds a handful of texts and so never grows.)
 */
import type { TokenCounter } from './TokenCounter.js';

/** Texts remembered: a step's tool output, its reply at entry, and the entries around them. */
const RECENT_TEXTS = 8;

export function recentTokenCounts(inner: TokenCounter, size = RECENT_TEXTS): TokenCounter {
  const counts = new Map<string, number | Promise<number>>();
  const remember = (text: string, count: number | Promise<number>) => {
    counts.delete(text);
    counts.set(text, count);
    if (counts.size > size) {
      const oldest = counts.keys().next();
      if (oldest.done !== true) counts.delete(oldest.value);
    }
  };
  return {
    countText(text: string): number | Promise<number> {
      const known = counts.get(text);
      if (known !== undefined) {
        remember(text, known);
        return known;
      }
      const counted = inner.countText(text);
      remember(text, counted);
      if (typeof counted !== 'number') {
        counted.then(
          (value) => {
            if (counts.get(text) === counted) counts.set(text, value);
          },
          () => {
            if (counts.get(text) === counted) counts.delete(text);
          },
        );
      }
      return counted;
    },
  };
}
