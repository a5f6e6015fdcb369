/**
 * Keeps every density reply true: a reply (a tool response carrying its own output in `original`)
 * names earlier text — a call's output or parameter, or an `@` inclusion — that must be in the
 * same history, above the reply, as the tool's own text. A call id names the first call carrying
 * it (the one the wire shows under that id). A reply whose named text is gone, summarized or
 * changed is put back as the tool's own output, byte for byte. Compression and density run this
 * in the same rewrite that drops a referent, so no request ever holds a reply that dangles.
 */
import type { IContent, ToolResponseBlock } from '../../../../services/history/IContent.js';
import {
  pairToolCallsByPosition,
  type BlockSite,
  type CallSite,
} from '../../../../services/history/toolCallPairing.js';
import { inclusionBody } from '../../fileInclusionFormat.js';
import type { DensityPassResult } from './densityEdits.js';
import { isDensityReply, replyText, restoredReply } from '../entry/densityReply.js';
import { humanInclusions } from '../humanInclusions.js';
import { expandRepeatedLines, isRepeatedLinesReply } from '../entry/repeatedLinesText.js';
import { parameterRecord } from '../toolParameters.js';
import type { HistorySlots } from '../toolCallIndex.js';
import { unchangedReplyReferent } from '../entry/unchangedRead.js';

function before(a: BlockSite, b: BlockSite): boolean {
  return (
    a.entryIndex < b.entryIndex || (a.entryIndex === b.entryIndex && a.blockIndex < b.blockIndex)
  );
}

/** The tool's own text of a response: not a reply, its result or (failed, no result) its error. */
function ownOutput(block: ToolResponseBlock): string | undefined {
  if (isDensityReply(block)) return undefined;
  const { result, error } = block;
  if (error !== undefined) return result === '' || result === undefined ? error : undefined;
  return typeof result === 'string' ? result : undefined;
}

/** What a reply at `site` may read: first calls by id, and the inclusions above it. */
class Referents {
  private readonly firstCalls = new Map<string, CallSite>();

  constructor(private readonly slots: HistorySlots) {
    for (const call of pairToolCallsByPosition(slots).calls)
      if (!this.firstCalls.has(call.block.id)) this.firstCalls.set(call.block.id, call);
  }

  /** The output of the first call with `id`, when its answer is above `site`. */
  output(id: string, site: BlockSite): string | undefined {
    const response = this.firstCalls.get(id)?.responses[0];
    if (response === undefined || !before(response, site)) return undefined;
    return ownOutput(response.block);
  }

  /** A string parameter of the first call with `id`, when that call is above `site`. */
  parameter(id: string, name: string, site: BlockSite): string | undefined {
    const call = this.firstCalls.get(id);
    if (call === undefined || !before(call, site)) return undefined;
    const value = parameterRecord(call.block.parameters)?.[name];
    return typeof value === 'string' ? value : undefined;
  }

  /** Whether an entry above `site` includes a file whose content is `text`. */
  included(text: string, site: BlockSite): boolean {
    for (let i = 0; i < site.entryIndex; i++) {
      const entry = this.slots[i];
      if (entry === undefined) continue;
      for (const { blockIndex, spans } of humanInclusions(entry)) {
        const block = entry.blocks[blockIndex];
        if (block?.type !== 'text') continue;
        for (const span of spans) {
          const body = inclusionBody(block.text, span);
          if (body === text || body === `${text}\n`) return true;
        }
      }
    }
    return false;
  }
}

/** Whether the reply at `site` still stands for exactly `original` with what is above it. */
function stands(
  block: ToolResponseBlock & { readonly original: string },
  site: BlockSite,
  referents: Referents,
): boolean {
  const text = replyText(block);
  const named = unchangedReplyReferent(text);
  // A reply since replaced by a pointer or summary names nothing (its original stays for recall).
  if (named === undefined && !isRepeatedLinesReply(text)) return true;
  if (named?.kind === 'inclusion') return referents.included(block.original, site);
  if (named?.kind === 'call') return referents.output(named.callId, site) === block.original;
  const expanded = expandRepeatedLines(text, (ref) =>
    ref.parameter === undefined
      ? referents.output(ref.callId, site)
      : referents.parameter(ref.callId, ref.parameter, site),
  );
  return expanded === block.original;
}

/**
 * The edits that put back every reply in `slots` from entry `from` on that no longer stands
 * (`pruned`: how many). Pure; cheap when the history holds no reply.
 */
export function settleRepliesPass(slots: HistorySlots, from = 0): DensityPassResult {
  const replacements = new Map<number, IContent>();
  let restored = 0;
  let referents: Referents | undefined;
  slots.forEach((entry, entryIndex) => {
    if (entry === undefined || entryIndex < from) return;
    let changed = false;
    const blocks = entry.blocks.map((block, blockIndex) => {
      if (block.type !== 'tool_response' || !isDensityReply(block)) return block;
      referents ??= new Referents(slots);
      if (stands(block, { entryIndex, blockIndex }, referents)) return block;
      changed = true;
      restored++;
      return restoredReply(block);
    });
    if (changed) replacements.set(entryIndex, { ...entry, blocks });
  });
  return { removals: new Set(), replacements, pruned: restored };
}

/** `history` with every reply that no longer stands put back; the same array when none. */
export function settleReplies(history: readonly IContent[]): readonly IContent[] {
  const { replacements } = settleRepliesPass(history);
  if (replacements.size === 0) return history;
  return history.map((entry, index) => replacements.get(index) ?? entry);
}
