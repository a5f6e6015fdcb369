/**
 * IContent history → OpenAI chat-completions messages and tools (pure). Tool responses become
 * `role: 'tool'` messages with their `tool_call_id`; unpaired calls and responses are dropped
 * first (see pairToolCalls). Thinking is not sent back: the chat API has no input field for it.
 */
import type {
  ChatCompletionContentPart,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ContentBlock, IContent, MediaBlock } from '../services/history/IContent.js';
import type { ToolSchema } from './IProvider.js';
import { pairToolCalls } from './pairToolCalls.js';
import {
  argumentsJson,
  codeBlockText,
  mediaPlaceholder,
  toolResponseText,
} from './toolPayloads.js';

export function toOpenAIMessages(
  contents: readonly IContent[],
  systemPrompt?: string,
): ChatCompletionMessageParam[] {
  const messages: ChatCompletionMessageParam[] = [];
  if (systemPrompt !== undefined && systemPrompt !== '') {
    messages.push({ role: 'system', content: systemPrompt });
  }
  for (const entry of pairToolCalls(contents).contents) {
    switch (entry.speaker) {
      case 'human':
        pushUser(messages, entry.blocks);
        break;
      case 'ai':
        pushAssistant(messages, entry.blocks);
        break;
      case 'tool':
        pushToolResults(messages, entry.blocks);
        break;
      default: {
        const unreachable: never = entry.speaker;
        throw new Error(`Unknown speaker ${String(unreachable)}`);
      }
    }
  }
  return messages;
}

export function toOpenAITools(tools: readonly ToolSchema[] | undefined): ChatCompletionTool[] {
  return (tools ?? []).map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: { ...tool.parameters },
    },
  }));
}

function pushUser(messages: ChatCompletionMessageParam[], blocks: readonly ContentBlock[]): void {
  const parts = userParts(blocks);
  if (parts.length === 0) return;
  const onlyText = parts.every((p) => p.type === 'text');
  messages.push({
    role: 'user',
    content: onlyText ? parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n') : parts,
  });
}

function userParts(blocks: readonly ContentBlock[]): ChatCompletionContentPart[] {
  const parts: ChatCompletionContentPart[] = [];
  for (const block of blocks) {
    if (block.type === 'text' && block.text !== '') parts.push({ type: 'text', text: block.text });
    else if (block.type === 'code') parts.push({ type: 'text', text: codeBlockText(block) });
    else if (block.type === 'media') parts.push(mediaPart(block));
  }
  return parts;
}

function mediaPart(block: MediaBlock): ChatCompletionContentPart {
  if (!block.mimeType.startsWith('image/')) return { type: 'text', text: mediaPlaceholder(block) };
  const url = block.encoding === 'url' ? block.data : `data:${block.mimeType};base64,${block.data}`;
  return { type: 'image_url', image_url: { url } };
}

function pushAssistant(
  messages: ChatCompletionMessageParam[],
  blocks: readonly ContentBlock[],
): void {
  const texts: string[] = [];
  const toolCalls: ChatCompletionMessageToolCall[] = [];
  for (const block of blocks) {
    if (block.type === 'text') texts.push(block.text);
    else if (block.type === 'code') texts.push(codeBlockText(block));
    else if (block.type === 'media') texts.push(mediaPlaceholder(block));
    else if (block.type === 'tool_call') {
      toolCalls.push({
        id: block.id,
        type: 'function',
        function: { name: block.name, arguments: argumentsJson(block.parameters) },
      });
    }
  }
  const text = texts.join('');
  if (text === '' && toolCalls.length === 0) return;
  messages.push({
    role: 'assistant',
    content: text === '' ? null : text,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
  });
}

function pushToolResults(
  messages: ChatCompletionMessageParam[],
  blocks: readonly ContentBlock[],
): void {
  const rest: ContentBlock[] = [];
  for (const block of blocks) {
    if (block.type === 'tool_response') {
      messages.push({ role: 'tool', tool_call_id: block.callId, content: toolResponseText(block) });
    } else {
      rest.push(block);
    }
  }
  pushUser(messages, rest);
}
