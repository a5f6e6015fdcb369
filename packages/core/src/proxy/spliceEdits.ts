/**
 * Writes the pointer into the original request text at the given result sites, back to front, and
 * touches nothing else: no re-serialization, no key reordering, the same bytes for the same sites
 * on every request.
 */
import { proxyPointer, type PointerSite } from './proxyPointer.js';

/** The JSON text that replaces one result's content value. */
export function pointerValue(site: PointerSite): string {
  const text = JSON.stringify(proxyPointer(site.recallId));
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
