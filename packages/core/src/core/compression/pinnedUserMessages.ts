/**
 * The user's words, pinned through every compaction: what the user typed in a turn (client
 * context such as `<system-reminder>` blocks taken out), rendered verbatim as one section a summary
 * or the compression trail carries, and read back from such a section when a later compaction
 * covers it. A single huge paste keeps its head and tail with a recall id for the whole. Pure.
 */
import type { IContent } from '../../services/history/IContent.js';
import { isSkillText, withoutClientContext } from '../../services/history/clientContext.js';
import { recallIdOfText } from './recallPointers.js';
import { isDenseText } from './denseText.js';

/** Past this many characters a message is a paste: head and tail are kept, the rest by recall id. */
export const HUGE_PASTE_CHARS = 8_000;
/** Characters a huge paste keeps at each end. */
export const PASTE_END_CHARS = 2_000;

const PINNED_HEADING =
  "The user's messages, verbatim and oldest first (the turns they were typed in are compacted):";

/** `[user message 2 of 5, 1,234 chars]`: the count is the body's length as written below it. */
const MARKER = /^\[user message (\d+) of (\d+), ([\d,]+) chars\]$/gm;

/**
 * A turn on the user's side: a human entry, or a tool entry (a wire request's user message holds
 * the tool results and, after them, what the user typed meanwhile).
 */
function isUsersEntry(entry: IContent): boolean {
  const meta = entry.metadata;
  return (
    entry.speaker !== 'ai' &&
    meta?.isSummary !== true &&
    meta?.synthetic !== true &&
    meta?.artifactTrail !== true &&
    meta?.attachment === undefined &&
    meta?.wireRole === undefined
  );
}

/**
 * What the user typed in `entry`, one message per text block (a client merges consecutive user
 * messages into one turn, each still its own block), without client context; none for entries the
 * user did not write (tool results, summaries, Dense's own entries, attachments, a skill's text the
 * client loaded). The messages an earlier pinned section holds are not the user's words here
 * (`pinnedIn` reads them).
 */
export function usersMessages(entry: IContent): string[] {
  if (!isUsersEntry(entry)) return [];
  const messages: string[] = [];
  for (const [index, block] of entry.blocks.entries()) {
    const words =
      block.type === 'text' && !isSkillText(entry, index) ? usersWordsIn(block.text) : '';
    if (words !== '') messages.push(words);
  }
  return messages;
}

/**
 * The user's words in one text of a user turn: '' for text Dense wrote (a summary or trail the
 * client sent back, whose pinned messages `pinnedIn` reads), else the text without client context.
 */
export function usersWordsIn(text: string): string {
  if (text.includes(PINNED_HEADING) || isDenseText(text)) return '';
  return withoutClientContext(text);
}

/** The recall id of a whole user message (named where a huge paste is cut). */
export function recallIdOfUserMessage(text: string): string {
  return recallIdOfText('user message', text);
}

/** A message as pinned: whole, or a huge paste's head and tail around its recall id. */
function pinnedForm(text: string): string {
  if (text.length <= HUGE_PASTE_CHARS) return text;
  const cut = text.length - 2 * PASTE_END_CHARS;
  const note = `[… ${cut.toLocaleString('en-US')} characters of this paste cut; \`dense recall ${recallIdOfUserMessage(text)}\` gives the whole message (\`--grep PATTERN\` for part of it) …]`;
  return `${text.slice(0, PASTE_END_CHARS)}\n${note}\n${text.slice(-PASTE_END_CHARS)}`;
}

/** The messages as one section (each body exactly as `pinnedForm` gives it); '' for none. */
export function renderPinned(messages: readonly string[]): string {
  if (messages.length === 0) return '';
  const bodies = messages.map(pinnedForm);
  const parts = bodies.map(
    (body, i) =>
      `[user message ${i + 1} of ${bodies.length}, ${body.length.toLocaleString('en-US')} chars]\n${body}`,
  );
  return [PINNED_HEADING, ...parts].join('\n');
}

/**
 * The messages a pinned section in `text` holds, in order ([] when it holds none): each body is
 * read by the length its marker states, so nothing the user typed can end it early.
 */
export function pinnedIn(text: string): string[] {
  const at = text.indexOf(PINNED_HEADING);
  if (at < 0) return [];
  const found: string[] = [];
  MARKER.lastIndex = at;
  let from = at;
  for (let match = MARKER.exec(text); match !== null; match = MARKER.exec(text)) {
    if (match.index < from) continue;
    const length = Number((match[3] as string).replaceAll(',', ''));
    const start = match.index + match[0].length + 1;
    found.push(text.slice(start, start + length));
    from = start + length;
    if (match[1] === match[2]) break;
    MARKER.lastIndex = from;
  }
  return found;
}

/**
 * The user's messages of `entries` in order: their own words, and the messages pinned sections
 * among them carry (an earlier summary that `entries` now covers). Repeats are kept once.
 */
export function userMessagesOf(entries: readonly IContent[]): string[] {
  const messages: string[] = [];
  const seen = new Set<string>();
  const add = (text: string) => {
    if (text === '' || seen.has(text)) return;
    seen.add(text);
    messages.push(text);
  };
  for (const entry of entries) {
    if (entry.speaker === 'ai') continue;
    for (const block of entry.blocks) {
      if (block.type === 'text') for (const carried of pinnedIn(block.text)) add(carried);
    }
    for (const message of usersMessages(entry)) add(message);
  }
  return messages;
}
