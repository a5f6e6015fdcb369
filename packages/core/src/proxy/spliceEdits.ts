/**
 * Writes the pointer into the original request at the given result sites and touches nothing
 * else: no re-serialization, no key reordering, the same bytes for the same sites on every
 * request. `spliceEdits` works on the text; `spliceBytes` on the body bytes the text was decoded
 * from (no second encoding of the whole request).
 */
import type { PointerSite } from './proxyPointer.js';

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

export interface Splice {
  readonly text: string;
  /** Offset of the first change (text before it is byte-identical); -1 when nothing changed. */
  readonly firstChange: number;
  /** Characters removed overall. */
  readonly removedChars: number;
}

export function spliceEdits(text: string, sites: readonly PointerSite[]): Splice {
  if (sites.length === 0) return { text, firstChange: -1, removedChars: 0 };
  const ordered = [...sites].sort((a, b) => a.start - b.start);
  const parts: string[] = [];
  let cursor = 0;
  let removed = 0;
  for (const site of ordered) {
    if (site.start < cursor) continue;
    const value = pointerValue(site);
    parts.push(text.slice(cursor, site.start), value);
    removed += site.end - site.start - value.length;
    cursor = site.end;
  }
  parts.push(text.slice(cursor));
  return { text: parts.join(''), firstChange: ordered[0]?.start ?? -1, removedChars: removed };
}

/** Sites in text order, without any that overlaps an earlier one (the splice skips those). */
function orderedSites(sites: readonly PointerSite[]): PointerSite[] {
  const ordered = [...sites].sort((a, b) => a.start - b.start);
  let cursor = 0;
  return ordered.filter((site) => {
    if (site.start < cursor) return false;
    cursor = site.end;
    return true;
  });
}

/** Characters the pointers at `sites` take out of the text (what `spliceEdits` reports). */
export function removedChars(sites: readonly PointerSite[]): number {
  return orderedSites(sites).reduce(
    (sum, site) => sum + site.end - site.start - pointerValue(site).length,
    0,
  );
}

/**
 * The body `text` was decoded from, with the pointers written in: the same bytes as
 * `Buffer.from(spliceEdits(text, sites).text)`, copied once from the original bytes.
 */
export function spliceBytes(body: Buffer, text: string, sites: readonly PointerSite[]): Buffer {
  return sites.length === 0 ? body : Buffer.concat(splicedChunks(body, text, sites));
}

/**
 * `spliceBytes` as the chunks to send one after the other, uncopied: views of the original bytes
 * between the pointers, and the pointers' bytes.
 */
export function splicedChunks(body: Buffer, text: string, sites: readonly PointerSite[]): Buffer[] {
  if (sites.length === 0) return [body];
  // Every character is one byte when the lengths agree (ASCII): offsets need no counting.
  const ascii = body.length === text.length;
  const parts: Buffer[] = [];
  let chars = 0;
  let bytes = 0;
  const byteAt = (offset: number): number =>
    ascii ? offset : bytes + Buffer.byteLength(text.slice(chars, offset), 'utf8');
  for (const site of orderedSites(sites)) {
    const start = byteAt(site.start);
    parts.push(body.subarray(bytes, start));
    chars = site.start;
    bytes = start;
    const end = byteAt(site.end);
    parts.push(Buffer.from(pointerValue(site), 'utf8'));
    chars = site.end;
    bytes = end;
  }
  parts.push(body.subarray(bytes));
  return parts;
}
