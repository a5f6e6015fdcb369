/**
 * A Codex `compacted` record as the history Codex continues with after the boundary. A remote
 * compaction records an empty `message` and a `replacement_history`: the user messages Codex kept
 * and one item whose `encrypted_content` only the provider can read (the summary). The summary
 * entry holds, in order, the kept messages' text and a placeholder for the encrypted item whose
 * o200k size is the item's recorded size (`encryptedItemTokens`), so a replay that resets its
 * history to the entry sends what Codex sent. A legacy record (a summary in `message`, no
 * replacement history) is that message.
 */
import { textBlock, type TextBlock } from '../../services/history/IContent.js';
import { joinedText, list, obj, str, type Json } from '../jsonValues.js';

/**
 * Provider tokens per character of a compaction item's `encrypted_content`, measured on the
 * corpus's remote compactions (docs/transcripts.md): the first prompt after each boundary, less the
 * fixed prompt and the kept messages, over the encrypted characters.
 */
export const ENCRYPTED_TOKENS_PER_CHAR = 0.177;

/** The tokens an encrypted compaction item of `chars` characters is counted as. */
export function encryptedItemTokens(chars: number): number {
  return Math.round(chars * ENCRYPTED_TOKENS_PER_CHAR);
}

/** What the placeholder says it is; the filler after it makes up the counted size. */
export const PLACEHOLDER_HEAD = '[encrypted compaction summary, counted at its recorded size]';
/** o200k tokens of `PLACEHOLDER_HEAD` (checked by the tests). */
export const PLACEHOLDER_HEAD_TOKENS = 12;
/** One o200k token per repetition. */
const FILLER = ' x';

/**
 * A text block standing in for an encrypted item of `chars` characters: its o200k count is
 * `encryptedItemTokens(chars)`, or the heading's when that is more.
 */
export function encryptedPlaceholder(chars: number): TextBlock {
  const filler = FILLER.repeat(Math.max(0, encryptedItemTokens(chars) - PLACEHOLDER_HEAD_TOKENS));
  return textBlock(`${PLACEHOLDER_HEAD}${filler}`);
}

/**
 * What a compaction record becomes: the summary's blocks, which of them restate messages kept from
 * before the boundary (their indices; the others are what the compaction wrote), and the items
 * left out, by reason.
 */
export interface CompactionReading {
  readonly blocks: readonly TextBlock[];
  readonly keptMessageBlocks: readonly number[];
  readonly ignored: readonly string[];
}

/** Items of a replacement history the model never sees (or sees in the fixed prompt). */
function leftOut(item: Json): string {
  const type = str(item.type) ?? 'unknown';
  return type === 'message'
    ? `${str(item.role) ?? 'unknown'} message in a compaction's replacement history`
    : `${type} item in a compaction's replacement history`;
}

function readItem(item: Json): { block: TextBlock; kept: boolean } | undefined {
  const encrypted = str(item.encrypted_content);
  if (encrypted !== undefined && item.type !== 'reasoning') {
    return { block: encryptedPlaceholder(encrypted.length), kept: false };
  }
  if (item.type !== 'message' || (item.role !== 'user' && item.role !== 'assistant')) {
    return undefined;
  }
  const text = joinedText(item.content, '\n');
  return text.trim() === '' ? undefined : { block: textBlock(text), kept: true };
}

/** Reads one `compacted` record's payload. */
export function readCompaction(payload: Json): CompactionReading {
  const history = list(payload.replacement_history);
  if (history.length === 0) {
    const message = str(payload.message) ?? '';
    return message.trim() === ''
      ? {
          blocks: [],
          keptMessageBlocks: [],
          ignored: ['compacted line without a summary or replacement history'],
        }
      : { blocks: [textBlock(message)], keptMessageBlocks: [], ignored: [] };
  }
  const blocks: TextBlock[] = [];
  const keptMessageBlocks: number[] = [];
  const ignored: string[] = [];
  for (const raw of history) {
    const item = obj(raw);
    const read = readItem(item);
    if (read === undefined) {
      ignored.push(leftOut(item));
      continue;
    }
    if (read.kept) keptMessageBlocks.push(blocks.length);
    blocks.push(read.block);
  }
  return { blocks, keptMessageBlocks, ignored };
}
