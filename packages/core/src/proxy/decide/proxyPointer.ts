/**
 * The text the proxy sends in place of a pruned tool result: it names the result's recall id and
 * the command that gives the original back, then, within `STALE_SPECIFICS_CHARS`, what the read
 * it replaces declared (`name:line`), the error messages its code spells out and the paths and
 * names it mentioned (`outputSpecifics`),
 * said to be from the version read then: a later partial edit leaves most of them true, and the
 * agent goes on using them (a shell read of a range names them at their lines in the file, counted
 * from where its command says the output starts). The id and the specifics are pure functions of
 * the result and its call (its call id, tool and text, as Dense's own recall ids are, and the
 * call's command), so the same request always gets the same bytes.
 * A pointer is worth writing only when it costs fewer tokens than the result (`pointerVerdictAt`, the
 * rule replies at entry and the CLI follow).
 */
import { originalResponseText, recallIdOfResponse } from '../../core/compression/recallPointers.js';
import { shorterInTokens } from '../../core/compression/shorterInTokens.js';
import type { RecallEntry } from '../../recall/RecallArchive.js';
import type { ToolCallBlock, ToolResponseBlock } from '../../services/history/IContent.js';
import { shellReadOfCall } from '../../core/compression/density/shellReadOfCall.js';
import { withStaleSpecifics } from '../../core/compression/stalePointer.js';
import type { PointerSite } from '../splice/spliceEdits.js';
import type { ResultSite, WireHistory } from '../wire/wireHistory.js';

const pointerHead = (recallId: string): string =>
  `[Result pruned (stale read) — run \`dense recall ${recallId}\` to see the original`;

/**
 * The pointer naming `recallId` for a result whose original text is `original`: with the read's
 * specifics when it has any and the pointer stays shorter in tokens than the original, else the
 * recall id alone. Pure; at most `PROXY_POINTER_CHARS + STALE_SPECIFICS_LEAD.length + STALE_SPECIFICS_CHARS`
 * characters.
 */
export function proxyPointer(recallId: string, original = ''): string {
  return weighed(recallId, original).text;
}

/** The pointer naming `recallId` alone. */
function barePointer(recallId: string): string {
  return `${pointerHead(recallId)}]`;
}

/** The pointer with the read's specifics; undefined when the read has none. */
function pointerWithSpecifics(
  recallId: string,
  original: string,
  firstLine?: number | null,
): string | undefined {
  return withStaleSpecifics(pointerHead(recallId), original, firstLine);
}

/** Characters of the shortest pointer (recall ids have one length; no specifics). */
export const PROXY_POINTER_CHARS = proxyPointer('r0000000000').length;

/** The call the result at `site` answers: the newest call with its id before the result. */
function callOf(wire: WireHistory, site: ResultSite): ToolCallBlock | undefined {
  for (let index = site.messageIndex; index >= 0; index -= 1) {
    for (const block of wire.history[index]?.blocks ?? []) {
      if (block.type === 'tool_call' && block.id === site.callId) return block;
    }
  }
  return undefined;
}

/** Where the read at `site` starts in its file, when its call is a shell read (`shellReadOfCall`). */
const firstLineAt = (wire: WireHistory, site: ResultSite) => (): number | null | undefined =>
  shellReadOfCall(callOf(wire, site))?.firstLine;

/** The tool result at `site`; throws when there is none (a reader bug). */
function responseAt(wire: WireHistory, site: ResultSite): ToolResponseBlock {
  const block = wire.history[site.messageIndex]?.blocks[site.blockIndex];
  if (block?.type !== 'tool_response') {
    throw new Error(`result site ${site.messageIndex}:${site.blockIndex} names no tool result`);
  }
  return block;
}

/**
 * The original of the result at `site`: its recall id and its text as the model saw it (a string
 * content as is; text blocks joined by newlines). Throws when the site names no tool result (a
 * reader bug; the caller forwards the request unchanged).
 */
export function recallEntryAt(wire: WireHistory, site: ResultSite): RecallEntry {
  const block = responseAt(wire, site);
  return { id: recallIdOfResponse(block), text: originalResponseText(block) };
}

/**
 * Pointer sites by result site: the read cache hands a request the previous request's site objects
 * for the messages whose bytes it verified, and their blocks with them, so the recall id is the
 * same.
 */
const POINTER_SITES = new WeakMap<ResultSite, PointerSite>();

/**
 * What weighing a result's pointer against the result decided, in one letter: `f` the pointer with
 * the read's specifics is shorter in tokens; `b` only the bare pointer is; `n` neither (the result
 * is not pointed). A pure function of the result, so a verdict one replica reached serves every
 * other (carried in the conversation's shared state) and the tokenizer runs once per result.
 */
export type PointerVerdict = 'f' | 'b' | 'n';

/** A result's pointer and whether it costs fewer tokens than the result. */
interface Pointer {
  readonly text: string;
  readonly verdict: PointerVerdict;
}

/** Pointers by recall id (a recall id stands for one original text). */
const POINTERS = new Map<string, Pointer>();
const MAX_POINTERS = 8192;

/** The pointer for `original` and its verdict, by counting tokens. */
function weighed(recallId: string, original: string, firstLine?: number | null): Pointer {
  const full = pointerWithSpecifics(recallId, original, firstLine);
  if (full !== undefined && shorterInTokens(full, original)) return { text: full, verdict: 'f' };
  const bare = barePointer(recallId);
  return { text: bare, verdict: shorterInTokens(bare, original) ? 'b' : 'n' };
}

/** The pointer a verdict reached elsewhere stands for (no token is counted). */
function fromVerdict(
  recallId: string,
  original: string,
  verdict: PointerVerdict,
  firstLine?: number | null,
): Pointer {
  const text =
    verdict === 'f'
      ? (pointerWithSpecifics(recallId, original, firstLine) ?? barePointer(recallId))
      : barePointer(recallId);
  return { text, verdict };
}

function pointerOf(
  recallId: string,
  block: ToolResponseBlock,
  firstLine: () => number | null | undefined,
  known?: ReadonlyMap<string, PointerVerdict>,
): Pointer {
  let pointer = POINTERS.get(recallId);
  if (pointer === undefined) {
    if (POINTERS.size >= MAX_POINTERS) POINTERS.clear();
    const original = originalResponseText(block);
    const verdict = known?.get(recallId);
    const from = firstLine();
    pointer =
      verdict === undefined
        ? weighed(recallId, original, from)
        : fromVerdict(recallId, original, verdict, from);
    POINTERS.set(recallId, pointer);
  }
  return pointer;
}

/**
 * The result at `site`'s recall id and its pointer's verdict (`known`: verdicts reached before,
 * e.g. by another replica, used instead of counting tokens). Counted once per recall id. Throws
 * when the site names no tool result.
 */
export function pointerVerdictAt(
  wire: WireHistory,
  site: ResultSite,
  known?: ReadonlyMap<string, PointerVerdict>,
): { readonly recallId: string; readonly verdict: PointerVerdict } {
  const block = responseAt(wire, site);
  const recallId = recallIdOfResponse(block);
  return { recallId, verdict: pointerOf(recallId, block, firstLineAt(wire, site), known).verdict };
}

/**
 * The site with its recall id and pointer (the pointer's specifics are read from the original once
 * per recall id; `recallEntryAt` hands out the original itself).
 */
export function pointerSite(wire: WireHistory, site: ResultSite): PointerSite {
  const known = POINTER_SITES.get(site);
  if (known !== undefined) return known;
  const block = responseAt(wire, site);
  const recallId = recallIdOfResponse(block);
  const pointer = {
    ...site,
    recallId,
    pointer: pointerOf(recallId, block, firstLineAt(wire, site)).text,
  };
  POINTER_SITES.set(site, pointer);
  return pointer;
}
