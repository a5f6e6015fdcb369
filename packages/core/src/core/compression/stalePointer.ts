/**
 * The pointer left in place of a read a later write made stale. Beside the recall id it says, in
 * the CLI and the proxy alike, what the read held: the
 * read's specifics (what the file declared, `name:line`, the error messages its code spells out,
 * the paths and names it mentioned: `outputSpecifics`), said to be from the version read then. A
 * later partial edit leaves most of them true, and the agent goes on using them. A pointer carries
 * them only while it still costs fewer tokens than the read (`shorterInTokens`). A shell read of a
 * range (`sed -n '240,420p'`) names its declarations at their lines in the file, counted from where
 * the command says its output starts (`shellReadOfCall`). Pure.
 */
import { outputSpecifics } from '../../proxy/budget/outputSpecifics.js';
import type { ToolResponseBlock } from '../../services/history/IContent.js';
import { originalResponseText, prunedPointer, STALE_SPECIFICS_LEAD } from './recallPointers.js';
import { shorterInTokens } from './shorterInTokens.js';

/** Characters a pointer may spend on the specifics of the read it replaces. */
export const STALE_SPECIFICS_CHARS = 800;

/**
 * `head` (a pointer without its closing bracket) with the specifics of the read `original`, or
 * undefined when the read has none. `firstLine`: the file line the read's output starts at, when
 * its lines carry no numbers (null: not known; default 1).
 */
export function withStaleSpecifics(
  head: string,
  original: string,
  firstLine?: number | null,
): string | undefined {
  // Only reads are made stale by a later write, so the specifics are a read's.
  const specifics = outputSpecifics({
    kind: 'read',
    text: original,
    shown: '',
    budgetChars: STALE_SPECIFICS_CHARS,
    firstLine,
  });
  return specifics === '' ? undefined : `${head}${STALE_SPECIFICS_LEAD}${specifics}]`;
}

/**
 * Pointers by read: READ→WRITE runs before every request and finds a stale read again on each
 * until its pointer is applied (a deferred batch waits several turns), and blocks are immutable,
 * so the read's specifics are found and its tokens counted once.
 */
const POINTERS = new WeakMap<ToolResponseBlock, string>();

/**
 * The CLI's pointer for the stale read `block`: with its specifics while that is fewer tokens.
 * `firstLine`: where the read's output starts in the file (its call's, a function of the block).
 */
export function stalePointer(block: ToolResponseBlock, firstLine?: number | null): string {
  const known = POINTERS.get(block);
  if (known !== undefined) return known;
  const bare = prunedPointer(block, 'stale', 'recall');
  const original = originalResponseText(block);
  const full = withStaleSpecifics(bare.slice(0, -1), original, firstLine);
  const pointer = full !== undefined && shorterInTokens(full, original) ? full : bare;
  POINTERS.set(block, pointer);
  return pointer;
}
