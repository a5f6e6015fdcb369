/**
 * A density reply as a block: the reply text in the field the model reads (`error` for a failed
 * call's output, else `result`), the tool's own output kept in `original` so that recall returns
 * it and a reply whose referent is gone can be put back as it was.
 */
import type {
  IContent,
  ToolCallBlock,
  ToolResponseBlock,
} from '../../../../services/history/IContent.js';

/** Where a response holds the text the model sees: its result, or its error. */
export type OutputField = 'result' | 'error';

/** `response` with `reply` in place of its own output `original`, which sat in `field`. */
export function asDensityReply(
  response: ToolResponseBlock,
  reply: { readonly field: OutputField; readonly text: string; readonly original: string },
): ToolResponseBlock {
  return { ...response, [reply.field]: reply.text, original: reply.original };
}

/** Whether `block` is a density reply (it carries its own output aside). */
export function isDensityReply(
  block: ToolResponseBlock,
): block is ToolResponseBlock & { readonly original: string } {
  return typeof block.original === 'string';
}

/** The text a reply shows the model. */
export function replyText(block: ToolResponseBlock): string {
  const shown = block.error !== undefined ? block.error : block.result;
  return typeof shown === 'string' ? shown : '';
}

/** The reply put back as the tool's own output, byte for byte. */
export function restoredReply(
  block: ToolResponseBlock & { readonly original: string },
): ToolResponseBlock {
  const { original, ...rest } = block;
  return { ...rest, [block.error !== undefined ? 'error' : 'result']: original };
}

/**
 * Whether a reply to `call` may name the call with id `id` (the call itself, for its own
 * parameter): no other call in `history` carries that id. With reused ids (every call `call_1`)
 * the name could point at another call's output.
 */
export function namesUniquely(
  history: readonly IContent[],
  call: ToolCallBlock,
): (id: string) => boolean {
  // Counted on the first question only: most outputs match no earlier copy and never ask.
  let uses: Map<string, number> | undefined;
  const count = (): Map<string, number> => {
    const counts = new Map<string, number>();
    for (const entry of history)
      for (const block of entry.blocks)
        if (block.type === 'tool_call' && block !== call)
          counts.set(block.id, (counts.get(block.id) ?? 0) + 1);
    counts.set(call.id, (counts.get(call.id) ?? 0) + 1);
    return counts;
  };
  return (id) => (uses ??= count()).get(id) === 1;
}
