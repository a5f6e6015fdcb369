/**
 * Room `splice/`: write pointers into the original bytes; imports wire/ and images/ only.
 *
 * Writes the pointer into the original request at the given result sites and touches nothing
 * else: no re-serialization, no key reordering, the same bytes for the same sites on every
 * request. `spliceEdits` works on the text; `reusedSplice` on the body bytes the text was decoded
 * from (no second encoding of the whole request).
 */
import type { ResultSite } from '../wire/wireHistory.js';

/** A result site the pointer goes into, with the recall id it names and the pointer's text. */
export interface PointerSite extends ResultSite {
  readonly recallId: string;
  /** The pointer (`proxyPointer` of the result), not yet JSON-encoded. */
  readonly pointer: string;
}

/** Pointer values by recall id, breakpoint-less (every request writes the same ones again). */
const POINTER_VALUES = new Map<string, string>();
const MAX_POINTER_VALUES = 8192;

/** The JSON text that replaces one result's content value. */
export function pointerValue(site: PointerSite): string {
  let text = POINTER_VALUES.get(site.recallId);
  if (text === undefined) {
    if (POINTER_VALUES.size >= MAX_POINTER_VALUES) POINTER_VALUES.clear();
    text = JSON.stringify(site.pointer);
    POINTER_VALUES.set(site.recallId, text);
  }
  return site.cacheControlRaw === undefined
    ? text
    : `[{"type":"text","text":${text},"cache_control":${site.cacheControlRaw}}]`;
}

/** Characters the pointer or reply at `site` takes out of the request. */
export function charsTakenOut(site: PointerSite): number {
  return site.end - site.start - pointerValue(site).length;
}

/** Pointer values' bytes, by value (the values are cached strings: their hashes are too). */
const POINTER_BYTES = new Map<string, Buffer>();

/** `pointerValue` encoded, shared by every request that writes the same value. */
export function pointerBytes(site: PointerSite): Buffer {
  const value = pointerValue(site);
  let bytes = POINTER_BYTES.get(value);
  if (bytes === undefined) {
    if (POINTER_BYTES.size >= MAX_POINTER_VALUES) POINTER_BYTES.clear();
    bytes = Buffer.from(value, 'utf8');
    POINTER_BYTES.set(value, bytes);
  }
  return bytes;
}

/**
 * Unchanged stretches of the body at least this long are sent as views of it; shorter parts are
 * joined with their neighbours (one write per part would cost more than copying them).
 */
export const VIEW_BYTES = 64 * 1024;

export interface Splice {
  readonly text: string;
  /** Offset of the first change (text before it is byte-identical); -1 when nothing changed. */
  readonly firstChange: number;
  /** Characters removed overall. */
  readonly removedChars: number;
}

export function spliceEdits(text: string, sites: readonly PointerSite[]): Splice {
  if (sites.length === 0) return { text, firstChange: -1, removedChars: 0 };
  const ordered = orderedSites(sites);
  const parts: string[] = [];
  let cursor = 0;
  let removed = 0;
  for (const site of ordered) {
    const value = pointerValue(site);
    parts.push(text.slice(cursor, site.start), value);
    removed += charsTakenOut(site);
    cursor = site.end;
  }
  parts.push(text.slice(cursor));
  return { text: parts.join(''), firstChange: ordered[0]?.start ?? -1, removedChars: removed };
}

/**
 * Sites in text order, without any that overlaps an earlier one (the splice skips those): `sites`
 * itself when it already is (the density step passes them so).
 */
export function orderedSites(sites: readonly PointerSite[]): readonly PointerSite[] {
  if (inOrder(sites)) return sites;
  const ordered = [...sites].sort((a, b) => a.start - b.start);
  let cursor = 0;
  return ordered.filter((site) => {
    if (site.start < cursor) return false;
    cursor = site.end;
    return true;
  });
}

/** Whether each site starts at or after the start of the one before it. */
function byStartAlready(sites: readonly { readonly start: number }[]): boolean {
  for (let i = 1; i < sites.length; i++)
    if ((sites[i] as { start: number }).start < (sites[i - 1] as { start: number }).start)
      return false;
  return true;
}

/**
 * The sites of `runs` by start, as a stable sort of them all would order them: merged in one pass
 * when each run already is by start (the density step's pointers already sent, its new batch and
 * its replies each are, in request order), else sorted.
 */
export function mergedByStart<T extends { readonly start: number }>(
  runs: readonly (readonly T[])[],
): T[] {
  if (!runs.every(byStartAlready)) return runs.flat().sort((a, b) => a.start - b.start);
  let merged: T[] = [];
  for (const run of runs) {
    if (run.length === 0) continue;
    const next: T[] = [];
    let i = 0;
    let j = 0;
    while (i < merged.length || j < run.length) {
      const left = merged[i];
      const right = run[j];
      // Ties keep the earlier run's site first, as a stable sort of the concatenation does.
      if (right === undefined || (left !== undefined && left.start <= right.start)) {
        next.push(left as T);
        i++;
      } else {
        next.push(right);
        j++;
      }
    }
    merged = next;
  }
  return merged;
}

/** Whether each site starts at or after the end of the one before it. */
export function inOrder(
  sites: readonly { readonly start: number; readonly end: number }[],
): boolean {
  let cursor = 0;
  for (const site of sites) {
    if (site.start < cursor) return false;
    cursor = site.end;
  }
  return true;
}

/** Index of the last anchor at or before `offset` (-1: none). */
export function anchorBefore(chars: readonly number[], offset: number): number {
  let low = 0;
  let high = chars.length - 1;
  let found = -1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    if ((chars[middle] as number) <= offset) {
      found = middle;
      low = middle + 1;
    } else high = middle - 1;
  }
  return found;
}
