/**
 * IContent history → Anthropic Messages API `messages` and `tools` (pure). Roles must alternate,
 * so consecutive same-role turns are merged; tool responses become `tool_result` blocks inside a
 * user turn (first in it, `is_error` for failures); thinking goes back only with its signature.
 */
import type { ContentBlockParam, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { ContentBlock, IContent, MediaBlock } from '../services/history/IContent.js';
import type { ToolSchema } from './IProvider.js';
import { pairToolCalls } from './pairToolCalls.js';
import {
  argumentsObject,
  LEADING_USER_TURN_TEXT,
  codeBlockText,
  mediaPlaceholder,
  toolResponseText,
} from './toolPayloads.js';

type Role = 'user' | 'assistant';

/** Anthropic accepts tool ids matching [a-zA-Z0-9_-]+; other ids are rewritten consistently. */
export function anthropicToolId(id: string): string {
  const cleaned = id.replace(/[^a-zA-Z0-9_-]/g, '_');
  return cleaned === '' ? 'call' : cleaned;
}

interface Message {
  role: Role;
  content: ContentBlockParam[];
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * `anchorsAfter`: entries after which a cache breakpoint goes. It lands on the last
 * block of the message that ends with the entry; when the next entry is merged into that message,
 * on the message before (a breakpoint must end a prefix of whole entries). An entry the pairing
 * rewrote, or one at the very end, gets none.
 */
export function toAnthropicMessages(
  contents: readonly IContent[],
  anchorsAfter: readonly IContent[] = [],
): MessageParam[] {
  const anchorEntries = new Set(anchorsAfter);
  const anchored = new Set<Message>();
  let pending: Message | undefined;
  const messages: Message[] = [];
  for (const entry of pairToolCalls(contents, { normalizeId: anthropicToolId }).contents) {
    const role: Role = entry.speaker === 'ai' ? 'assistant' : 'user';
    const content = role === 'assistant' ? assistantBlocks(entry.blocks) : userBlocks(entry.blocks);
    const last = messages.at(-1);
    if (content.length > 0 && last?.role === role) {
      last.content.push(...content);
      if (pending === last) {
        const before = messages.at(-2);
        if (before !== undefined) anchored.add(before);
        pending = undefined;
      }
    } else if (content.length > 0) {
      if (pending !== undefined) anchored.add(pending);
      pending = undefined;
      messages.push({ role, content });
    }
    if (anchorEntries.has(entry)) pending = messages.at(-1);
  }
  if (messages[0]?.role === 'assistant') {
    messages.unshift({ role: 'user', content: [{ type: 'text', text: LEADING_USER_TURN_TEXT }] });
  }
  return messages.map((message): MessageParam => {
    const ordered =
      message.role === 'user' ? toolResultsFirst(message.content) : [...message.content];
    const content = anchored.has(message) ? withBreakpoint(ordered) : ordered;
    return { role: message.role, content };
  });
}

/** The blocks with a cache breakpoint on the last one (thinking cannot carry one). */
function withBreakpoint(blocks: ContentBlockParam[]): ContentBlockParam[] {
  const last = blocks.at(-1);
  if (last === undefined || last.type === 'thinking' || last.type === 'redacted_thinking')
    return blocks;
  return [...blocks.slice(0, -1), { ...last, cache_control: EPHEMERAL }];
}

export function toAnthropicTools(tools: readonly ToolSchema[] | undefined): Tool[] {
  return (tools ?? []).map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: { type: 'object', ...tool.parameters },
  }));
}

function userBlocks(blocks: readonly ContentBlock[]): ContentBlockParam[] {
  const out: ContentBlockParam[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        if (block.text.trim() !== '') out.push({ type: 'text', text: block.text });
        break;
      case 'code':
        out.push({ type: 'text', text: codeBlockText(block) });
        break;
      case 'media':
        out.push(mediaBlock(block));
        break;
      case 'tool_response':
        out.push({
          type: 'tool_result',
          tool_use_id: anthropicToolId(block.callId),
          content: toolResponseText(block),
          ...(block.error === undefined ? {} : { is_error: true }),
        });
        break;
      case 'tool_call':
      case 'thinking':
        break;
      default: {
        const unreachable: never = block;
        throw new Error(`Unknown block ${JSON.stringify(unreachable)}`);
      }
    }
  }
  return out;
}

function mediaBlock(block: MediaBlock): ContentBlockParam {
  const imageTypes = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] as const;
  const image = imageTypes.find((t) => t === block.mimeType);
  if (image !== undefined) {
    return block.encoding === 'url'
      ? { type: 'image', source: { type: 'url', url: block.data } }
      : { type: 'image', source: { type: 'base64', media_type: image, data: block.data } };
  }
  if (block.mimeType === 'application/pdf') {
    return block.encoding === 'url'
      ? { type: 'document', source: { type: 'url', url: block.data } }
      : {
          type: 'document',
          source: { type: 'base64', media_type: 'application/pdf', data: block.data },
        };
  }
  return { type: 'text', text: mediaPlaceholder(block) };
}

function assistantBlocks(blocks: readonly ContentBlock[]): ContentBlockParam[] {
  const out: ContentBlockParam[] = [];
  let thought: { thinking: string; signature?: string } | undefined;
  const flushThinking = (): void => {
    if (thought?.signature !== undefined && thought.signature !== '') {
      out.push({ type: 'thinking', thinking: thought.thinking, signature: thought.signature });
    }
    thought = undefined;
  };
  for (const block of blocks) {
    if (block.type === 'thinking') {
      thought = {
        thinking: (thought?.thinking ?? '') + block.thought,
        ...((block.signature ?? thought?.signature)
          ? { signature: block.signature ?? thought?.signature }
          : {}),
      };
      continue;
    }
    flushThinking();
    if (block.type === 'text' && block.text.trim() !== '')
      out.push({ type: 'text', text: block.text });
    else if (block.type === 'code') out.push({ type: 'text', text: codeBlockText(block) });
    else if (block.type === 'media') out.push({ type: 'text', text: mediaPlaceholder(block) });
    else if (block.type === 'tool_call') {
      out.push({
        type: 'tool_use',
        id: anthropicToolId(block.id),
        name: block.name,
        input: argumentsObject(block.parameters),
      });
    }
  }
  flushThinking();
  return out;
}

function toolResultsFirst(content: readonly ContentBlockParam[]): ContentBlockParam[] {
  return [
    ...content.filter((b) => b.type === 'tool_result'),
    ...content.filter((b) => b.type !== 'tool_result'),
  ];
}
