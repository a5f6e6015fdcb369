/**
 * A request body as the prompt cache sees it: its content blocks in cache order (Anthropic: tools,
 * system, then each message's blocks; OpenAI Responses: instructions, tools, then each input item),
 * each with its token count and whether it carries a `cache_control` breakpoint. A block's key
 * includes its role and whether it opens a message, so two prompts share a prefix only when their
 * bytes up to there would be the same.
 */
import type { PromptBlock } from './promptCache.js';

/** Counts the tokens of a text (the bench passes a memoized o200k counter). */
export type CountTokens = (text: string) => number;

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text a block is billed for: its visible payload, not its JSON punctuation. */
export function blockText(block: unknown): string {
  if (typeof block === 'string') return block;
  if (!isObject(block)) return JSON.stringify(block) ?? '';
  if (typeof block.text === 'string') return block.text;
  if (block.type === 'tool_use') return `${String(block.name)}${JSON.stringify(block.input)}`;
  if (block.type === 'tool_result') {
    const content = block.content;
    if (typeof content === 'string') return content;
    if (Array.isArray(content)) return content.map(blockText).join('\n');
    return '';
  }
  if (block.type === 'function_call') return `${String(block.name)}${String(block.arguments)}`;
  if (block.type === 'function_call_output') return blockText(block.output);
  const { cache_control: _ignored, ...rest } = block;
  return JSON.stringify(rest);
}

function keyOf(prefix: string, block: unknown): string {
  if (!isObject(block)) return `${prefix}${JSON.stringify(block)}`;
  const { cache_control: _ignored, ...rest } = block;
  return `${prefix}${JSON.stringify(rest)}`;
}

function toBlock(prefix: string, block: unknown, count: CountTokens): PromptBlock {
  return {
    key: keyOf(prefix, block),
    tokens: count(blockText(block)),
    breakpoint: isObject(block) && block.cache_control !== undefined,
  };
}

/** The blocks of an Anthropic Messages request. */
export function anthropicPromptBlocks(body: unknown, count: CountTokens): PromptBlock[] {
  if (!isObject(body)) return [];
  const blocks: PromptBlock[] = [];
  const tools = Array.isArray(body.tools) ? body.tools : [];
  for (const tool of tools) blocks.push(toBlock('tool:', tool, count));
  const system = body.system;
  if (typeof system === 'string') blocks.push(toBlock('system:', system, count));
  if (Array.isArray(system))
    for (const part of system) blocks.push(toBlock('system:', part, count));
  const messages = Array.isArray(body.messages) ? body.messages : [];
  for (const message of messages) {
    if (!isObject(message)) continue;
    const role = String(message.role);
    const content = typeof message.content === 'string' ? [message.content] : message.content;
    if (!Array.isArray(content)) continue;
    content.forEach((part, i) => {
      blocks.push(toBlock(`${role}${i === 0 ? '^' : ''}:`, part, count));
    });
  }
  return blocks;
}

/** The blocks of an OpenAI Responses request (no breakpoints: the cache is automatic). */
export function responsesPromptBlocks(body: unknown, count: CountTokens): PromptBlock[] {
  if (!isObject(body)) return [];
  const blocks: PromptBlock[] = [];
  if (typeof body.instructions === 'string') {
    blocks.push(toBlock('instructions:', body.instructions, count));
  }
  const tools = Array.isArray(body.tools) ? body.tools : [];
  for (const tool of tools) blocks.push(toBlock('tool:', tool, count));
  const input = typeof body.input === 'string' ? [body.input] : body.input;
  if (Array.isArray(input)) for (const item of input) blocks.push(itemBlock(item, count));
  return blocks;
}

function itemBlock(item: unknown, count: CountTokens): PromptBlock {
  if (isObject(item) && item.type === 'message' && Array.isArray(item.content)) {
    const text = item.content.map(blockText).join('\n');
    return { key: keyOf('item:', item), tokens: count(text), breakpoint: false };
  }
  return toBlock('item:', item, count);
}
