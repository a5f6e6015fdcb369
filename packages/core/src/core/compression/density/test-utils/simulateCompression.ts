/**
 * A compression as the reply properties simulate it: the oldest `cut` entries go and every other
 * remaining tool entry has its results replaced by a one-line summary. A reply kept in the tail
 * may then name a summary (the documented limit of the append-only replies).
 */
import type { IContent } from '../../../../services/history/IContent.js';

export function simulateCompression(history: readonly IContent[], cut: number): IContent[] {
  return history.slice(Math.min(cut, history.length - 1)).map((e, i) =>
    i % 2 === 0 && e.speaker === 'tool'
      ? {
          ...e,
          blocks: e.blocks.map((b) =>
            b.type === 'tool_response' ? { ...b, result: '[summary]' } : b,
          ),
        }
      : e,
  );
}
