/**
 * The inverse of a repeated-lines reply, for tests: each marker line replaced by the lines of the
 * text it names, read from `history` as it is (so a marker naming an output that is gone or
 * changed does not expand to the original).
 */
import type { IContent } from '../../../../services/history/IContent.js';
import { parameterRecord } from '../toolParameters.js';
import { expandRepeatedLines, type RepeatedLinesRef } from '../entry/repeatedLinesText.js';

/** The text a response shows the model: its result, or its error. */
export function shownText(block: { readonly result?: unknown; readonly error?: string }): string {
  return block.error ?? (typeof block.result === 'string' ? block.result : '');
}

/** The text `ref` names in `history`: a call's output, or its string parameter. */
export function namedIn(history: readonly IContent[], ref: RepeatedLinesRef): string | undefined {
  for (const entry of history)
    for (const block of entry.blocks) {
      if (ref.parameter === undefined) {
        if (block.type === 'tool_response' && block.callId === ref.callId) return shownText(block);
      } else if (block.type === 'tool_call' && block.id === ref.callId) {
        const value = parameterRecord(block.parameters)?.[ref.parameter];
        return typeof value === 'string' ? value : undefined;
      }
    }
  return undefined;
}

/** `reply` expanded; `undefined` when a marker names a text not in `history`. */
export { expandRepeatedLines };
