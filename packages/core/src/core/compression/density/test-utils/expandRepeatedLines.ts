/**
 * The inverse of a repeated-lines reply, for tests: each marker line replaced by the lines of the
 * output it names, read from `history` as it is (so a marker naming an output that is gone or
 * changed does not expand to the original).
 */
import type { IContent } from '../../../../services/history/IContent.js';
import { parseRepeatedLinesMarker } from '../repeatedLinesText.js';

/** The text a response shows the model: its result, or its error. */
export function shownText(block: { readonly result?: unknown; readonly error?: string }): string {
  return block.error ?? (typeof block.result === 'string' ? block.result : '');
}

export function outputIn(history: readonly IContent[], callId: string): string | undefined {
  for (const entry of history)
    for (const block of entry.blocks)
      if (block.type === 'tool_response' && block.callId === callId) return shownText(block);
  return undefined;
}

/** `reply` expanded; `undefined` when a marker names an output not in `history`. */
export function expandRepeatedLines(
  reply: string,
  outputOf: (callId: string) => string | undefined,
): string | undefined {
  const lines: string[] = [];
  for (const line of reply.split('\n')) {
    const ref = parseRepeatedLinesMarker(line);
    if (ref === undefined) {
      lines.push(line);
      continue;
    }
    const named = outputOf(ref.callId);
    if (named === undefined) return undefined;
    const namedLines = named.split('\n');
    if (ref.to > namedLines.length) return undefined;
    lines.push(...namedLines.slice(ref.from - 1, ref.to));
  }
  return lines.join('\n');
}
