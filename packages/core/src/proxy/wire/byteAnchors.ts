/** The byte anchors of a non-ASCII request's messages, counted past those a kept read knows. */
import type { JsonNode } from './jsonSpans.js';
import type { SegmentedText } from './segmentedText.js';

/**
 * Where each message of the conversation array starts, in characters of the text and in bytes of
 * the body (ascending): byte offsets need counting only from the nearest message start.
 */
export interface ByteAnchors {
  readonly chars: readonly number[];
  readonly bytes: readonly number[];
}

/** Each message's start in characters and bytes, counted only past the inherited ones. */
export function byteAnchors(
  text: SegmentedText,
  items: readonly JsonNode[],
  inherited: { readonly anchors: ByteAnchors | undefined; readonly messages: number } | undefined,
): ByteAnchors {
  // The bytes before message `messages` are the kept read's: its start is known too.
  const count =
    inherited === undefined
      ? 0
      : Math.min(inherited.messages + 1, inherited.anchors?.chars.length ?? 0);
  const chars = inherited?.anchors?.chars.slice(0, count) ?? [];
  const bytes = inherited?.anchors?.bytes.slice(0, count) ?? [];
  let lastChars = chars.at(-1) ?? 0;
  let lastBytes = bytes.at(-1) ?? 0;
  for (let index = count; index < items.length; index++) {
    const start = (items[index] as JsonNode).start;
    lastBytes += text.byteLength(lastChars, start);
    lastChars = start;
    chars.push(start);
    bytes.push(lastBytes);
  }
  return { chars, bytes };
}
