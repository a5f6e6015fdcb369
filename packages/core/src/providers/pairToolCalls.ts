/**
 * Makes a history safe to send: every tool call must be answered by a tool response in the entries
 * right after it, and every tool response must answer such a call. Density pruning and interrupted
 * turns break that pairing; the APIs reject the request when it is broken. This pure pass drops
 * the unpaired halves (and entries left empty), the same way for every provider.
 */
import type { ContentBlock, IContent } from '../services/history/IContent.js';

export interface PairingReport {
  readonly contents: readonly IContent[];
  /** Ids of calls dropped because no response followed them. */
  readonly droppedCallIds: readonly string[];
  /** Call ids of responses dropped because no call preceded them (or a duplicate answer). */
  readonly droppedResponseIds: readonly string[];
}

/**
 * A call is paired when a response with its id appears in the run of `tool` entries directly after
 * the AI entry that made it; the first such response is kept. Everything else tool-related is
 * dropped; text, thinking and media are never touched.
 */
export function pairToolCalls(contents: readonly IContent[]): PairingReport {
  const keepCall = new Set<string>();
  const keepResponse = new Set<ContentBlock>();
  const pairedIds = new Set<string>();
  for (let i = 0; i < contents.length; i++) {
    const entry = contents[i];
    if (entry?.speaker !== 'ai') continue;
    const callIds = new Set(
      entry.blocks.flatMap((b) => (b.type === 'tool_call' && !pairedIds.has(b.id) ? [b.id] : [])),
    );
    if (callIds.size === 0) continue;
    const answered = new Set<string>();
    for (let j = i + 1; j < contents.length && contents[j]?.speaker === 'tool'; j++) {
      for (const block of contents[j]?.blocks ?? []) {
        if (block.type !== 'tool_response') continue;
        if (!callIds.has(block.callId) || answered.has(block.callId)) continue;
        answered.add(block.callId);
        keepResponse.add(block);
      }
    }
    for (const id of answered) {
      keepCall.add(`${i}:${id}`);
      pairedIds.add(id);
    }
  }
  return rebuild(contents, keepCall, keepResponse);
}

function rebuild(
  contents: readonly IContent[],
  keepCall: ReadonlySet<string>,
  keepResponse: ReadonlySet<ContentBlock>,
): PairingReport {
  const droppedCallIds: string[] = [];
  const droppedResponseIds: string[] = [];
  const out: IContent[] = [];
  const seenCallIds = new Set<string>();
  contents.forEach((entry, index) => {
    const blocks = entry.blocks.filter((block) => {
      if (block.type === 'tool_call') {
        const keep = keepCall.has(`${index}:${block.id}`) && !seenCallIds.has(block.id);
        if (keep) seenCallIds.add(block.id);
        else droppedCallIds.push(block.id);
        return keep;
      }
      if (block.type === 'tool_response') {
        const keep = keepResponse.has(block);
        if (!keep) droppedResponseIds.push(block.callId);
        return keep;
      }
      return true;
    });
    if (blocks.length === entry.blocks.length) out.push(entry);
    else if (blocks.length > 0) out.push({ ...entry, blocks });
  });
  return { contents: out, droppedCallIds, droppedResponseIds };
}
