/**
 * Whether a short text (a task's subject, an error line) is visible in what was sent: somewhere
 * in one entry's shown text, whitespace runs read as one space (summaries re-wrap and re-indent)
 * and terminal colour codes left out.
 * Entries are immutable values, so where a text was last seen, and which entries were searched
 * without finding it, are remembered by identity: each call searches only entries it has not
 * searched before.
 */
import type { IContent } from '../../services/history/IContent.js';
import { shownText } from '../grounding/groundingText.js';

const compactCache = new WeakMap<IContent, string>();

/** A terminal's colour and cursor codes: what a summary quoting the line leaves out. */
// eslint-disable-next-line no-control-regex
const ANSI_CODE = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** `text` without terminal codes, every run of whitespace one space, trimmed. */
export function compactWhitespace(text: string): string {
  return text.replace(ANSI_CODE, '').replace(/\s+/g, ' ').trim();
}

function compactShown(entry: IContent): string {
  let text = compactCache.get(entry);
  if (text === undefined) {
    text = compactWhitespace(shownText(entry));
    compactCache.set(entry, text);
  }
  return text;
}

export class TextSightings {
  private readonly seenIn = new Map<string, IContent>();
  private readonly notIn = new Map<string, WeakSet<IContent>>();

  /** Whether some entry of `sent` (whose entries are `present`) shows `text`. */
  visible(text: string, sent: readonly IContent[], present: ReadonlySet<IContent>): boolean {
    const last = this.seenIn.get(text);
    if (last !== undefined && present.has(last)) return true;
    const needle = compactWhitespace(text);
    let searched = this.notIn.get(text);
    if (searched === undefined) {
      searched = new WeakSet();
      this.notIn.set(text, searched);
    }
    for (let i = sent.length - 1; i >= 0; i--) {
      const entry = sent[i] as IContent;
      if (searched.has(entry)) continue;
      if (compactShown(entry).includes(needle)) {
        this.seenIn.set(text, entry);
        return true;
      }
      searched.add(entry);
    }
    this.seenIn.delete(text);
    return false;
  }
}

/** The last of `items` (ordered by position) strictly before `position`. */
export function latestBefore<T extends { readonly position: number }>(
  items: readonly T[],
  position: number,
): T | undefined {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if ((items[mid] as T).position < position) low = mid + 1;
    else high = mid;
  }
  return items[low - 1];
}
