/**
 * A compacted region's recall entry in pieces: the raw text of each message and of the separator
 * before the next, so the archive stores each message once however many regions hold it, and
 * the pieces join to the region's text exactly (first message's start to last one's end).
 */

interface Span {
  readonly start: number;
  readonly end: number;
}

/** The pieces of `text` from message `first`'s start to message `end - 1`'s end. */
export function regionPieces(
  text: { slice(start: number, end: number): string },
  spans: readonly Span[],
  first: number,
  end: number,
): string[] {
  const pieces: string[] = [];
  for (let at = first; at < end; at++) {
    const span = spans[at];
    if (span === undefined) break;
    pieces.push(text.slice(span.start, span.end));
    const next = spans[at + 1];
    if (at + 1 < end && next !== undefined) pieces.push(text.slice(span.end, next.start));
  }
  return pieces;
}
