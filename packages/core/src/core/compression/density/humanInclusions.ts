/**
 * The `@` inclusions of a human message, parsed once per entry object and memoized by identity
 * (entries are immutable), so running dedup every turn costs a lookup per unchanged message
 * instead of a rescan of its text.
 */
import { findFileInclusions, type FileInclusionSpan } from '../densityVocabulary.js';
import type { IContent } from '../../../services/history/IContent.js';

export interface BlockInclusions {
  readonly blockIndex: number;
  readonly spans: readonly FileInclusionSpan[];
}

const NONE: readonly BlockInclusions[] = Object.freeze([]);
const cache = new WeakMap<IContent, readonly BlockInclusions[]>();

/** Well-formed inclusions per text block of a human entry; none for other speakers. */
export function humanInclusions(entry: IContent): readonly BlockInclusions[] {
  if (entry.speaker !== 'human') return NONE;
  let found = cache.get(entry);
  if (found === undefined) {
    const list: BlockInclusions[] = [];
    entry.blocks.forEach((block, blockIndex) => {
      if (block.type !== 'text') return;
      const spans = findFileInclusions(block.text);
      if (spans.length > 0) list.push({ blockIndex, spans });
    });
    found = list.length === 0 ? NONE : list;
    cache.set(entry, found);
  }
  return found;
}
