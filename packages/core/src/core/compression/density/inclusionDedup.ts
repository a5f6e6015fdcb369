/**
 * Duplicate `@` file inclusion dedup (REQ-HD-006): when a file is inlined into human messages
 * more than once, only its latest inclusion keeps the content; each older one is cut out of its
 * text block and a one-line note says what was removed and where the live copy is.
 */
import { findFileInclusions, type FileInclusionSpan } from '../densityVocabulary.js';
import type { ContentBlock, IContent } from '../../../services/history/IContent.js';
import type { DensityPassResult } from './densityEdits.js';
import { humanInclusions } from './humanInclusions.js';
import { resolveToolPath } from './toolParameters.js';
import type { HistorySlots } from './toolCallIndex.js';

export interface InclusionDedupOptions {
  /** Relative paths in markers resolve against this directory. */
  readonly workspaceRoot: string;
}

/** Longest path a note repeats; longer ones are shortened from the left. */
const NOTE_PATH_MAX = 120;

/**
 * The line left where an older copy of `filePath` was cut. It never starts with `--- `, so it can
 * never be taken for a marker line and a second run finds nothing new.
 */
export function staleInclusionNote(filePath: string): string {
  const shown =
    filePath.length > NOTE_PATH_MAX ? `…${filePath.slice(-(NOTE_PATH_MAX - 1))}` : filePath;
  return `[Earlier copy of ${shown} removed: a newer copy is included later in the conversation]`;
}

interface Inclusion {
  readonly entryIndex: number;
  readonly blockIndex: number;
  readonly span: FileInclusionSpan;
}

/**
 * Cuts every inclusion of a path except its latest (later message, later block, later offset).
 * Only well-formed inclusions count (see `findFileInclusions`); a span no longer than its note is
 * left (cutting it saves nothing), and a block whose cut would make its remaining markers pair
 * differently is left unchanged. `pruned` counts the spans cut.
 */
export function deduplicateFileInclusions(
  history: HistorySlots,
  options: InclusionDedupOptions,
): DensityPassResult {
  const byBlock = new Map<number, Map<number, FileInclusionSpan[]>>();
  const latest = new Map<string, Inclusion>();
  const stale: Inclusion[] = [];
  const keys = new Map<string, string>();
  forEachInclusion(history, (inclusion) => {
    const raw = inclusion.span.filePath;
    let key = keys.get(raw);
    if (key === undefined) {
      key = resolveToolPath(raw, options.workspaceRoot);
      keys.set(raw, key);
    }
    const previous = latest.get(key);
    if (previous && isWorthCutting(previous.span)) stale.push(previous);
    latest.set(key, inclusion);
  });
  for (const { entryIndex, blockIndex, span } of stale) {
    const blocks = byBlock.get(entryIndex) ?? new Map<number, FileInclusionSpan[]>();
    byBlock.set(entryIndex, blocks);
    const spans = blocks.get(blockIndex);
    if (spans) spans.push(span);
    else blocks.set(blockIndex, [span]);
  }
  return cutStaleSpans(history, byBlock);
}

/** A span no longer than its note would gain nothing and only cost the prompt cache. */
function isWorthCutting(span: FileInclusionSpan): boolean {
  return span.end - span.start > staleInclusionNote(span.filePath).length + 1;
}

/** Every well-formed inclusion in human text blocks, in history order. */
function forEachInclusion(history: HistorySlots, visit: (inclusion: Inclusion) => void): void {
  history.forEach((entry, entryIndex) => {
    if (entry?.speaker !== 'human') return;
    for (const { blockIndex, spans } of humanInclusions(entry)) {
      for (const span of spans) visit({ entryIndex, blockIndex, span });
    }
  });
}

function cutStaleSpans(
  history: HistorySlots,
  byBlock: ReadonlyMap<number, ReadonlyMap<number, readonly FileInclusionSpan[]>>,
): DensityPassResult {
  const replacements = new Map<number, IContent>();
  let pruned = 0;
  for (const [entryIndex, blocks] of byBlock) {
    const entry = history[entryIndex];
    if (entry === undefined) continue;
    const nextBlocks: ContentBlock[] = [...entry.blocks];
    let changed = false;
    for (const [blockIndex, spans] of blocks) {
      const block = entry.blocks[blockIndex];
      if (block?.type !== 'text') continue;
      const text = cutSpans(block.text, spans);
      if (text === undefined) continue;
      nextBlocks[blockIndex] = { ...block, text };
      pruned += spans.length;
      changed = true;
    }
    if (changed) replacements.set(entryIndex, { ...entry, blocks: nextBlocks });
  }
  return { removals: new Set(), replacements, pruned };
}

/**
 * `text` with each span replaced by its note, cut back to front in one pass so earlier offsets
 * stay valid. `undefined` when the result would not hold exactly the inclusions that were not
 * cut (say, an unclosed header above a cut span would pair with a stray closing marker below it).
 */
export function cutSpans(text: string, spans: readonly FileInclusionSpan[]): string | undefined {
  const ordered = [...spans].sort((a, b) => b.start - a.start);
  let result = text;
  for (const span of ordered) {
    const newline = text[span.end - 1] === '\n' ? '\n' : '';
    const note = staleInclusionNote(span.filePath) + newline;
    result = result.slice(0, span.start) + note + result.slice(span.end);
  }
  const cut = new Set(spans.map((span) => span.start));
  const expected = findFileInclusions(text)
    .filter((span) => !cut.has(span.start))
    .map((span) => text.slice(span.start, span.end));
  const actual = findFileInclusions(result).map((span) => result.slice(span.start, span.end));
  const same =
    expected.length === actual.length && expected.every((value, i) => value === actual[i]);
  return same ? result : undefined;
}
