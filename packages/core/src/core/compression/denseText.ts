/**
 * Text Dense writes into a conversation itself: the compression trail's header and a compaction
 * summary's first line. Such text is never the user's words nor a source of the user's numbers,
 * even where a client sends it back inside a user turn. Pure.
 */

export const TRAIL_HEADER =
  '[Artifact trail kept through compression; recall ids return exact content]';

/** The first line of a compaction summary Dense wrote (the proxy's working budget or its answer). */
const SUMMARY_HEAD = /^\[Dense (?:summarized|compacted) the \d+ /m;

/** Whether `text` holds a trail or a summary Dense wrote. */
export function isDenseText(text: string): boolean {
  return text.includes(TRAIL_HEADER) || SUMMARY_HEAD.test(text);
}
