/**
 * Reading a Claude Code record's message: its content blocks (a string content is one text
 * block), the tool_use ids an assistant record holds, the provider message id, and the text
 * blocks of a user record. Shared by the importer and the resumed-copy finder. Pure.
 */
import { isParams } from '../toolAliases.js';

type Json = Readonly<Record<string, unknown>>;

/** A message content as blocks: a string is one text block; anything else but a list is none. */
export function blocksOf(content: unknown): readonly unknown[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return Array.isArray(content) ? content : [];
}

function messageOf(record: Json): Json {
  return isParams(record.message) ? record.message : {};
}

/** The record's message blocks that are objects. */
export function recordBlocks(record: Json): readonly Json[] {
  return blocksOf(messageOf(record).content).filter(isParams);
}

/** The ids of the tool_use blocks a record holds, in order. */
export function toolUseIds(record: Json): readonly string[] {
  return recordBlocks(record)
    .filter((block) => block.type === 'tool_use' && typeof block.id === 'string')
    .map((block) => String(block.id));
}

/** The provider's message id (`message.id`), shared by the records of one reply. */
export function messageId(record: Json): string | undefined {
  const id = messageOf(record).id;
  return typeof id === 'string' ? id : undefined;
}

/** The text of each text block a record holds. */
export function textsOf(record: Json): readonly string[] {
  return recordBlocks(record)
    .filter((block) => block.type === 'text' && typeof block.text === 'string')
    .map((block) => String(block.text));
}
