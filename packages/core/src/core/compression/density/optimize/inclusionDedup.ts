/**
 * Stale `@` file inclusions. Dedup (REQ-HD-006): when a file is inlined into human messages more
 * than once, only its latest inclusion keeps the content. Beyond the spec, with READ→WRITE
 * pruning on: an inclusion of a file that a later successful write changed is stale as well. Each
 * stale copy is cut out of its text block and a one-line note says what was removed and why; a
 * later line that named the cut copy as still above becomes that note too (inclusionReferences).
 */
import { findFileInclusions, type FileInclusionSpan } from '../../densityVocabulary.js';
import type { ContentBlock, IContent } from '../../../../services/history/IContent.js';
import type { DensityPassResult } from './densityEdits.js';
import { humanInclusions } from '../humanInclusions.js';
import { resolveToolPath } from '../toolParameters.js';
import type { HistorySlots } from '../toolCallIndex.js';
import { recallIdOfInclusion, type PointerStyle } from '../../recallPointers.js';
import { rewriteReferencesToCutCopies } from './inclusionReferences.js';

export interface InclusionDedupOptions {
  /** Relative paths in markers resolve against this directory. */
  readonly workspaceRoot: string;
  /** Cut all but the latest inclusion of each file (REQ-HD-006; default true). */
  readonly dedupe?: boolean;
  /**
   * Latest successful write per resolved path (entry index): earlier inclusions are stale. As a
   * function it is called once, and only when the history holds an inclusion (finding the writes
   * reads every tool call).
   */
  readonly latestWrites?: ReadonlyMap<string, number> | (() => ReadonlyMap<string, number>);
  /** `recall`: each note names the recall id of the copy it replaces. */
  readonly pointerStyle?: PointerStyle;
}

export type StaleInclusionReason = 'duplicate' | 'written';

/** Longest path a note repeats; longer ones are shortened from the left. */
const NOTE_PATH_MAX = 120;

/**
 * The line left where an older copy of `filePath` was cut. It never starts with `--- `, so it can
 * never be taken for a marker line and a second run finds nothing new.
 */
export function staleInclusionNote(
  filePath: string,
  reason: StaleInclusionReason = 'duplicate',
  recallId?: string,
): string {
  const shown =
    filePath.length > NOTE_PATH_MAX ? `…${filePath.slice(-(NOTE_PATH_MAX - 1))}` : filePath;
  const recall = recallId === undefined ? '' : ` — recall id ${recallId} to see the original`;
  return reason === 'duplicate'
    ? `[Earlier copy of ${shown} removed: a newer copy is included later in the conversation${recall}]`
    : `[Earlier copy of ${shown} removed: the file was changed later in the conversation; read it again for its current content${recall}]`;
}

/** The note for `span` of `text`, naming its recall id when `style` is `recall`. */
function noteFor(
  text: string,
  span: FileInclusionSpan,
  reason: StaleInclusionReason | undefined,
  style: PointerStyle | undefined,
): string {
  const id = style === 'recall' ? recallIdOfInclusion(text.slice(span.start, span.end)) : undefined;
  return staleInclusionNote(span.filePath, reason, id);
}

interface Inclusion {
  readonly entryIndex: number;
  readonly blockIndex: number;
  readonly span: FileInclusionSpan;
}

interface StaleSpan {
  readonly span: FileInclusionSpan;
  readonly reason: StaleInclusionReason;
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
  const inclusions: (Inclusion & { readonly key: string })[] = [];
  const lastOf = new Map<string, number>();
  const keys = new Map<string, string>();
  forEachInclusion(history, (inclusion) => {
    const raw = inclusion.span.filePath;
    let key = keys.get(raw);
    if (key === undefined) {
      key = resolveToolPath(raw, options.workspaceRoot);
      keys.set(raw, key);
    }
    lastOf.set(key, inclusions.length);
    inclusions.push({ ...inclusion, key });
  });
  const byBlock = new Map<number, Map<number, StaleSpan[]>>();
  const given = options.latestWrites;
  const latestWrites =
    typeof given === 'function' ? (inclusions.length === 0 ? undefined : given()) : given;
  inclusions.forEach((inclusion, order) => {
    const reason = staleReason(inclusion, {
      duplicate: options.dedupe !== false && (lastOf.get(inclusion.key) ?? order) > order,
      written: (latestWrites?.get(inclusion.key) ?? -1) > inclusion.entryIndex,
    });
    if (reason === undefined) return;
    const blocks = byBlock.get(inclusion.entryIndex) ?? new Map<number, StaleSpan[]>();
    byBlock.set(inclusion.entryIndex, blocks);
    const spans = blocks.get(inclusion.blockIndex);
    const stale = { span: inclusion.span, reason };
    if (spans) spans.push(stale);
    else blocks.set(inclusion.blockIndex, [stale]);
  });
  const { result, notes } = cutStaleSpans(history, byBlock, options.pointerStyle);
  const copies = inclusions.map((inclusion) => ({
    entryIndex: inclusion.entryIndex,
    key: inclusion.key,
    cutNote: notes.get(siteKey(inclusion)),
  }));
  const current = (i: number) => result.replacements.get(i) ?? history[i];
  const rewritten = rewriteReferencesToCutCopies(history, current, copies, options.workspaceRoot);
  const replacements = new Map([...result.replacements, ...rewritten]);
  return { ...result, replacements };
}

const siteKey = (site: Inclusion) => `${site.entryIndex}:${site.blockIndex}:${site.span.start}`;

/**
 * Why an inclusion goes, if it does: changed by a later write (the more useful note), else
 * superseded by a later copy — each only when cutting it saves more than its note costs. Deciding
 * on both facts at once keeps optimize idempotent when a later pass erases a write's evidence.
 */
function staleReason(
  inclusion: Inclusion,
  facts: { readonly duplicate: boolean; readonly written: boolean },
): StaleInclusionReason | undefined {
  if (facts.written && isWorthCutting(inclusion.span, 'written')) return 'written';
  if (facts.duplicate && isWorthCutting(inclusion.span, 'duplicate')) return 'duplicate';
  return undefined;
}

/** A span no longer than its note would gain nothing and only cost the prompt cache. */
function isWorthCutting(span: FileInclusionSpan, reason: StaleInclusionReason): boolean {
  return span.end - span.start > staleInclusionNote(span.filePath, reason).length + 1;
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

/** Cuts the stale spans; `notes` holds the note left for each span actually cut, by `siteKey`. */
function cutStaleSpans(
  history: HistorySlots,
  byBlock: ReadonlyMap<number, ReadonlyMap<number, readonly StaleSpan[]>>,
  style: PointerStyle | undefined,
): { readonly result: DensityPassResult; readonly notes: Map<string, string> } {
  const replacements = new Map<number, IContent>();
  const notes = new Map<string, string>();
  let pruned = 0;
  for (const [entryIndex, blocks] of byBlock) {
    const entry = history[entryIndex];
    if (entry === undefined) continue;
    const nextBlocks: ContentBlock[] = [...entry.blocks];
    let changed = false;
    for (const [blockIndex, spans] of blocks) {
      const block = entry.blocks[blockIndex];
      if (block?.type !== 'text') continue;
      const reasons = new Map(spans.map((stale) => [stale.span.start, stale.reason]));
      const noteOf = (span: FileInclusionSpan) =>
        noteFor(block.text, span, reasons.get(span.start), style);
      const text = cutSpans(
        block.text,
        spans.map((stale) => stale.span),
        noteOf,
      );
      if (text === undefined) continue;
      for (const { span } of spans) {
        notes.set(siteKey({ entryIndex, blockIndex, span }), noteOf(span));
      }
      nextBlocks[blockIndex] = { ...block, text };
      pruned += spans.length;
      changed = true;
    }
    if (changed) replacements.set(entryIndex, { ...entry, blocks: nextBlocks });
  }
  return { result: { removals: new Set(), replacements, pruned }, notes };
}

/**
 * `text` with each span replaced by its note, cut back to front in one pass so earlier offsets
 * stay valid. `undefined` when the result would not hold exactly the inclusions that were not
 * cut (say, an unclosed header above a cut span would pair with a stray closing marker below it).
 */
export function cutSpans(
  text: string,
  spans: readonly FileInclusionSpan[],
  noteFor: (span: FileInclusionSpan) => string = (span) => staleInclusionNote(span.filePath),
): string | undefined {
  const ordered = [...spans].sort((a, b) => b.start - a.start);
  let result = text;
  for (const span of ordered) {
    const newline = text[span.end - 1] === '\n' ? '\n' : '';
    const note = noteFor(span) + newline;
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
