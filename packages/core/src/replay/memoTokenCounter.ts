/**
 * A token counter that remembers what it counted, keyed by a digest of the text: replaying one
 * recording under many policies tokenizes the same entries again and again, and BPE is the
 * replay's main cost. Counts are exactly the wrapped counter's.
 */
import { createHash } from 'node:crypto';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import { o200kTokenCounter } from '../services/history/TokenCounter.js';

/** Texts up to this length are their own key; longer ones are keyed by a SHA-1 digest. */
const RAW_KEY_CHARS = 200;

export interface MemoTokenCounter extends TokenCounter {
  /** Texts counted by the wrapped counter (cache misses). */
  readonly misses: () => number;
}

export function memoTokenCounter(inner: TokenCounter = o200kTokenCounter): MemoTokenCounter {
  const counts = new Map<string, number>();
  let misses = 0;
  const keyOf = (text: string) =>
    text.length <= RAW_KEY_CHARS
      ? `=${text}`
      : `#${text.length}:${createHash('sha1').update(text).digest('base64')}`;
  return {
    countText(text: string): number | Promise<number> {
      const key = keyOf(text);
      const known = counts.get(key);
      if (known !== undefined) return known;
      misses++;
      const counted = inner.countText(text);
      if (typeof counted === 'number') {
        counts.set(key, counted);
        return counted;
      }
      return counted.then((value) => {
        counts.set(key, value);
        return value;
      });
    },
    misses: () => misses,
  };
}
