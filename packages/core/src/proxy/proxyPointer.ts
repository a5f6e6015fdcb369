/**
 * The text the proxy sends in place of a pruned tool result: it names the result's recall id and
 * the command that gives the original back. The id is a pure function of the result (its call id,
 * tool and text, as Dense's own recall ids are), so the same request always gets the same bytes.
 */
import { originalResponseText, recallIdOfResponse } from '../core/compression/recallPointers.js';
import type { RecallEntry } from '../recall/RecallArchive.js';
import type { ResultSite, WireHistory } from './wireHistory.js';

/** A result site the pointer goes into, with the recall id it names. */
export interface PointerSite extends ResultSite {
  readonly recallId: string;
}

/** The pointer naming `recallId`. */
export function proxyPointer(recallId: string): string {
  return `[Result pruned (stale read) — run \`dense recall ${recallId}\` to see the original]`;
}

/** Characters of every pointer (recall ids have one length). */
export const PROXY_POINTER_CHARS = proxyPointer('r0000000000').length;

/**
 * The original of the result at `site`: its recall id and its text as the model saw it (a string
 * content as is; text blocks joined by newlines). Throws when the site names no tool result (a
 * reader bug; the caller forwards the request unchanged).
 */
export function recallEntryAt(wire: WireHistory, site: ResultSite): RecallEntry {
  const block = wire.history[site.messageIndex]?.blocks[site.blockIndex];
  if (block?.type !== 'tool_response') {
    throw new Error(`result site ${site.messageIndex}:${site.blockIndex} names no tool result`);
  }
  return { id: recallIdOfResponse(block), text: originalResponseText(block) };
}

/**
 * Pointer sites by result site: the read cache hands a request the previous request's site objects
 * for the messages whose bytes it verified, and their blocks with them, so the recall id is the
 * same.
 */
const POINTER_SITES = new WeakMap<ResultSite, PointerSite>();

/** The site with its recall id (the original's text is not built: `recallEntryAt` does that). */
export function pointerSite(wire: WireHistory, site: ResultSite): PointerSite {
  const known = POINTER_SITES.get(site);
  if (known !== undefined) return known;
  const block = wire.history[site.messageIndex]?.blocks[site.blockIndex];
  if (block?.type !== 'tool_response') {
    throw new Error(`result site ${site.messageIndex}:${site.blockIndex} names no tool result`);
  }
  const pointer = { ...site, recallId: recallIdOfResponse(block) };
  POINTER_SITES.set(site, pointer);
  return pointer;
}
