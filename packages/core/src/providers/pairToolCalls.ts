/**
 * Makes a history safe to send: every tool call must be answered by a tool response in the entries
 * right after it, and every tool response must answer such a call. Density pruning and interrupted
 * turns break that pairing; the APIs reject the request when it is broken. This pure pass drops
 * the unpaired halves (and entries left empty), the same way for every provider. Calls and
 * responses are paired by position (`pairToolCallsByPosition`), so a server that reuses ids loses
 * nothing; ids used by more than one kept call are then made unique for the wire (see
 * `wireToolCallId`), because the APIs match a result to its call by id within one request.
 */
import type { ContentBlock, IContent } from '../services/history/IContent.js';
import { pairToolCallsByPosition, type CallSite } from '../services/history/toolCallPairing.js';

export interface PairingReport {
  readonly contents: readonly IContent[];
  /** Ids of calls dropped because no response followed them. */
  readonly droppedCallIds: readonly string[];
  /** Call ids of responses dropped because no call preceded them (or a duplicate answer). */
  readonly droppedResponseIds: readonly string[];
}

export interface PairingOptions {
  /**
   * Rewrites an id into the form the API accepts (Anthropic allows `[a-zA-Z0-9_-]+`) BEFORE ids are
   * made unique, so two ids that normalize alike still reach the wire distinct. Must be idempotent.
   */
  readonly normalizeId?: (id: string) => string;
}

/**
 * The id a repeated call carries on the wire: the first call with an id keeps it, the n-th
 * (n >= 2) becomes `<id>__<n>` (or the next free suffix when the history already uses that one).
 * Deterministic, so the same history always gives the same request (and the same cached prefix).
 * Only the outgoing request changes; the history keeps the server's ids, and replies carry fresh
 * ids the server chose, so nothing needs mapping back.
 */
export function wireToolCallId(id: string, occurrence: number, taken: ReadonlySet<string>): string {
  if (occurrence <= 1) return id;
  let n = occurrence;
  while (taken.has(`${id}__${n}`)) n++;
  return `${id}__${n}`;
}

/**
 * A call is kept when the response that answers it (by position) is in the run of `tool` entries
 * directly after the AI entry that made it. Everything else tool-related is dropped; text,
 * thinking and media are never touched.
 */
export function pairToolCalls(
  contents: readonly IContent[],
  options: PairingOptions = {},
): PairingReport {
  const normalize = options.normalizeId ?? ((id: string) => id);
  const kept = new Map<ContentBlock, string>();
  const taken = new Set<string>();
  const occurrences = new Map<string, number>();
  const keptCalls = pairToolCallsByPosition(contents).calls.filter((call) =>
    answeredInNextRun(contents, call),
  );
  for (const call of keptCalls) taken.add(normalize(call.block.id));
  for (const call of keptCalls) {
    const id = normalize(call.block.id);
    const occurrence = (occurrences.get(id) ?? 0) + 1;
    occurrences.set(id, occurrence);
    const wireId = wireToolCallId(id, occurrence, taken);
    taken.add(wireId);
    kept.set(call.block, wireId);
    const response = call.responses[0];
    if (response) kept.set(response.block, wireId);
  }
  return rebuild(contents, kept);
}

function answeredInNextRun(contents: readonly IContent[], call: CallSite): boolean {
  const response = call.responses[0];
  if (response === undefined || contents[call.entryIndex]?.speaker !== 'ai') return false;
  for (let j = call.entryIndex + 1; j < response.entryIndex; j++) {
    if (contents[j]?.speaker !== 'tool') return false;
  }
  return response.entryIndex > call.entryIndex;
}

function withWireId(block: ContentBlock, wireId: string): ContentBlock {
  if (block.type === 'tool_call') return block.id === wireId ? block : { ...block, id: wireId };
  if (block.type === 'tool_response') {
    return block.callId === wireId ? block : { ...block, callId: wireId };
  }
  return block;
}

function rebuild(
  contents: readonly IContent[],
  kept: ReadonlyMap<ContentBlock, string>,
): PairingReport {
  const droppedCallIds: string[] = [];
  const droppedResponseIds: string[] = [];
  const out: IContent[] = [];
  for (const entry of contents) {
    let changed = false;
    const blocks: ContentBlock[] = [];
    for (const block of entry.blocks) {
      if (block.type !== 'tool_call' && block.type !== 'tool_response') {
        blocks.push(block);
        continue;
      }
      const wireId = kept.get(block);
      if (wireId === undefined) {
        if (block.type === 'tool_call') droppedCallIds.push(block.id);
        else droppedResponseIds.push(block.callId);
        changed = true;
        continue;
      }
      const sent = withWireId(block, wireId);
      changed ||= sent !== block;
      blocks.push(sent);
    }
    if (!changed) out.push(entry);
    else if (blocks.length > 0) out.push({ ...entry, blocks });
  }
  return { contents: out, droppedCallIds, droppedResponseIds };
}
