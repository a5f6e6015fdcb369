/**
 * The text the proxy sends in place of a pruned tool result: it names the result's recall id and
 * the command that gives the original back, then, within `POINTER_SPECIFICS_CHARS`, what the read
 * it replaces declared (`name:line`), the error messages its code spells out and the paths and
 * names it mentioned (`outputSpecifics`),
 * said to be from the version read then: a later partial edit leaves most of them true, and the
 * agent goes on using them. The id and the specifics are pure functions of the result (its call
 * id, tool and text, as Dense's own recall ids are), so the same request always gets the same bytes.
 */
import { originalResponseText, recallIdOfResponse } from '../core/compression/recallPointers.js';
import type { RecallEntry } from '../recall/RecallArchive.js';
import type { ToolResponseBlock } from '../services/history/IContent.js';
import { outputSpecifics } from './budget/outputSpecifics.js';
import type { ResultSite, WireHistory } from './wireHistory.js';

/** A result site the pointer goes into, with the recall id it names and the pointer's text. */
export interface PointerSite extends ResultSite {
  readonly recallId: string;
  /** The pointer (`proxyPointer` of the result), not yet JSON-encoded. */
  readonly pointer: string;
}

/** Characters a pointer may spend on the specifics of the read it replaces. */
export const POINTER_SPECIFICS_CHARS = 800;

/** What introduces the specifics: they describe the file as it was read, before the write. */
export const SPECIFICS_LEAD = '. The version read then declared (name:line) or named: ';

const pointerHead = (recallId: string): string =>
  `[Result pruned (stale read) — run \`dense recall ${recallId}\` to see the original`;

/**
 * The pointer naming `recallId` for a result whose original text is `original`: with the read's
 * specifics when it has any and the pointer stays shorter than the original, else the recall id
 * alone. Pure; at most `PROXY_POINTER_CHARS + SPECIFICS_LEAD.length + POINTER_SPECIFICS_CHARS`
 * characters.
 */
export function proxyPointer(recallId: string, original = ''): string {
  const bare = `${pointerHead(recallId)}]`;
  // Only reads are made stale by a later write, so the specifics are a read's.
  const specifics = outputSpecifics({
    kind: 'read',
    text: original,
    shown: '',
    budgetChars: POINTER_SPECIFICS_CHARS,
  });
  if (specifics === '') return bare;
  const full = `${pointerHead(recallId)}${SPECIFICS_LEAD}${specifics}]`;
  return full.length < original.length ? full : bare;
}

/** Characters of the shortest pointer (recall ids have one length; no specifics). */
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

/** Pointer texts by recall id (a recall id stands for one original text). */
const POINTER_TEXTS = new Map<string, string>();
const MAX_POINTER_TEXTS = 8192;

function pointerOf(recallId: string, block: ToolResponseBlock): string {
  let text = POINTER_TEXTS.get(recallId);
  if (text === undefined) {
    if (POINTER_TEXTS.size >= MAX_POINTER_TEXTS) POINTER_TEXTS.clear();
    text = proxyPointer(recallId, originalResponseText(block));
    POINTER_TEXTS.set(recallId, text);
  }
  return text;
}

/**
 * The site with its recall id and pointer (the pointer's specifics are read from the original once
 * per recall id; `recallEntryAt` hands out the original itself).
 */
export function pointerSite(wire: WireHistory, site: ResultSite): PointerSite {
  const known = POINTER_SITES.get(site);
  if (known !== undefined) return known;
  const block = wire.history[site.messageIndex]?.blocks[site.blockIndex];
  if (block?.type !== 'tool_response') {
    throw new Error(`result site ${site.messageIndex}:${site.blockIndex} names no tool result`);
  }
  const recallId = recallIdOfResponse(block);
  const pointer = { ...site, recallId, pointer: pointerOf(recallId, block) };
  POINTER_SITES.set(site, pointer);
  return pointer;
}
