/**
 * Text Dense writes into a conversation itself: the compression trail's header and a compaction
 * summary's first line. Such text is never the user's words nor a source of the user's numbers,
 * even where a client sends it back inside a user turn. Pure.
 */

export const TRAIL_HEADER =
  '[Artifact trail kept through compression; recall ids return exact content]';

/** The first line of a compaction summary Dense wrote (the proxy's working budget or its answer). */
const SUMMARY_HEAD = /^\[Dense (?:summarized|compacted) the \d+ /m;

/** A summary's first line up to the recall id of the messages it replaced. */
const SUMMARY_TRANSCRIPT_ID =
  /^\[Dense (?:summarized|compacted) the \d+ [^\n]*?`dense recall (r[0-9a-f]{10}) --grep /gm;

/**
 * The recall ids of the messages that the Dense summaries in `text` replaced, in order: where a
 * later compaction covers such a summary, these ids still lead to the turns before it.
 */
export function summarizedTranscriptIds(text: string): string[] {
  if (!text.includes('[Dense ')) return [];
  return [...text.matchAll(SUMMARY_TRANSCRIPT_ID)].map((match) => match[1] as string);
}

/** Whether `text` holds a trail or a summary Dense wrote. */
export function isDenseText(text: string): boolean {
  return text.includes(TRAIL_HEADER) || SUMMARY_HEAD.test(text);
}
