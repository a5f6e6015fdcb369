/**
 * Lines that name an `@` inclusion still above — a repeated inclusion's note in a user message, a
 * read's "unchanged since its inclusion" reply — and what becomes of them when dedup cuts the copy
 * they name. Each names the latest inclusion of its file before it (the note and the reply are
 * only given about that copy), so when that copy is cut, the line is rewritten in the same pass
 * into the cut copy's own stale note: it never says "still above" about a copy that is gone.
 */
import { findFileInclusions, type FileInclusionSpan } from '../../densityVocabulary.js';
import type { IContent, ToolResponseBlock } from '../../../../services/history/IContent.js';
import { resolveToolPath } from '../toolParameters.js';
import { buildToolCallIndex, type HistorySlots } from '../toolCallIndex.js';
import { INCLUDED_REPLY, readTarget } from '../entry/unchangedRead.js';
import { UNCHANGED_NOTE_HEAD, UNCHANGED_NOTE_TAIL } from '../entry/unchangedInclusion.js';

/** One inclusion in history order, with the note that replaces it when dedup cut it. */
export interface IncludedCopy {
  readonly entryIndex: number;
  readonly key: string;
  /** The line left where it was cut; `undefined` when it stays. */
  readonly cutNote: string | undefined;
}

const NOTE_HEAD = UNCHANGED_NOTE_HEAD;
const NOTE_TAIL = UNCHANGED_NOTE_TAIL;

/** Notes in `text` outside its inclusions: where each is and the path it names. */
function notesIn(text: string): { start: number; end: number; filePath: string }[] {
  const spans: readonly FileInclusionSpan[] = findFileInclusions(text);
  const inside = (at: number) => spans.some((span) => span.start <= at && at < span.end);
  const found: { start: number; end: number; filePath: string }[] = [];
  let from = 0;
  for (;;) {
    const tail = text.indexOf(NOTE_TAIL, from);
    if (tail < 0) return found;
    const lineStart = text.lastIndexOf('\n', tail) + 1;
    const head = text.indexOf(NOTE_HEAD, lineStart);
    if (head >= 0 && head < tail && !inside(head)) {
      found.push({
        start: head,
        end: tail + NOTE_TAIL.length,
        filePath: text.slice(head + NOTE_HEAD.length, tail),
      });
    }
    from = tail + NOTE_TAIL.length;
  }
}

/** The cut note of the latest copy of `key` in an entry before `entryIndex`, if it was cut. */
function cutReferent(
  copies: readonly IncludedCopy[],
  key: string,
  entryIndex: number,
): string | undefined {
  for (let i = copies.length - 1; i >= 0; i--) {
    const copy = copies[i]!;
    if (copy.entryIndex < entryIndex && copy.key === key) return copy.cutNote;
  }
  return undefined;
}

/**
 * Replacements for the entries whose notes or replies name a copy that was cut. `current` holds
 * the entries as dedup leaves them (its own replacements over `history`); a returned entry is
 * built on the current one.
 */
export function rewriteReferencesToCutCopies(
  history: HistorySlots,
  current: (entryIndex: number) => IContent | undefined,
  copies: readonly IncludedCopy[],
  workspaceRoot: string,
): Map<number, IContent> {
  const out = new Map<number, IContent>();
  if (!copies.some((copy) => copy.cutNote !== undefined)) return out;
  history.forEach((slot, entryIndex) => {
    const entry = slot === undefined ? undefined : current(entryIndex);
    if (entry?.speaker !== 'human') return;
    let changed = false;
    const blocks = entry.blocks.map((block) => {
      if (block.type !== 'text') return block;
      let text = block.text;
      for (const note of notesIn(block.text).reverse()) {
        const key = resolveToolPath(note.filePath, workspaceRoot);
        const cut = cutReferent(copies, key, entryIndex);
        if (cut === undefined) continue;
        text = `${text.slice(0, note.start)}${cut}\n${text.slice(note.end)}`;
      }
      if (text === block.text) return block;
      changed = true;
      return { ...block, text };
    });
    if (changed) out.set(entryIndex, { ...entry, blocks });
  });
  for (const response of buildToolCallIndex(history).responses) {
    if (response.block.result !== INCLUDED_REPLY || response.call === undefined) continue;
    const file = readTarget(response.call.block, workspaceRoot)?.files;
    if (file?.length !== 1) continue;
    const cut = cutReferent(copies, file[0]!, response.entryIndex);
    if (cut === undefined) continue;
    const entry = out.get(response.entryIndex) ?? current(response.entryIndex);
    if (entry === undefined) continue;
    const blocks = entry.blocks.map((block, i) =>
      i === response.blockIndex && block.type === 'tool_response'
        ? ({ ...block, result: cut } satisfies ToolResponseBlock)
        : block,
    );
    out.set(response.entryIndex, { ...entry, blocks });
  }
  return out;
}
