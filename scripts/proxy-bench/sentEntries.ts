/**
 * The conversation a forwarded request carries, as the entries the grounding oracle reads: one
 * entry per Anthropic message or Responses input item, its text, tool calls (name and arguments)
 * and tool results as blocks. The system prompt, instructions and tool definitions are left out:
 * in the bench they are the client's synthetic prefix, not anything the session showed. Anything
 * the shapes below do not cover becomes a text block of its strings (as the oracle reads any value
 * of unknown shape: no JSON escapes gluing words together), so nothing sent is lost. A reader of
 * its own, not the proxy's: the proxy's readers skip blocks they do not decide on, and the bench
 * must not judge the proxy with the proxy's own eyes. Pure.
 */
import type { ContentBlock, IContent } from '@dense/core';
import { leaves } from '../../packages/core/src/replay/grounding/groundingText.js';
import type { ClientApi } from './clientRequests.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: string): ContentBlock => ({ type: 'text', text: value });

function parsedArguments(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

function anthropicBlock(part: unknown): ContentBlock {
  if (typeof part === 'string') return text(part);
  if (!isObject(part)) return text(leaves(part));
  if (part.type === 'text' && typeof part.text === 'string') return text(part.text);
  if (part.type === 'tool_use') {
    return {
      type: 'tool_call',
      id: String(part.id),
      name: String(part.name),
      parameters: part.input,
    };
  }
  if (part.type === 'tool_result') {
    return {
      type: 'tool_response',
      callId: String(part.tool_use_id),
      toolName: '',
      result: part.content,
    };
  }
  return text(leaves(part));
}

function anthropicEntries(body: Json): IContent[] {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  return messages.filter(isObject).map((message) => {
    const content = Array.isArray(message.content) ? message.content : [message.content];
    return {
      speaker: message.role === 'assistant' ? 'ai' : 'human',
      blocks: content.map(anthropicBlock),
    };
  });
}

function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  if (isObject(part) && typeof part.text === 'string') return part.text;
  return leaves(part);
}

function responsesBlock(item: Json): ContentBlock {
  if (item.type === 'message') {
    const parts = Array.isArray(item.content) ? item.content : [item.content];
    return text(parts.map(partText).join('\n'));
  }
  if (item.type === 'function_call') {
    return {
      type: 'tool_call',
      id: String(item.call_id),
      name: String(item.name),
      parameters: parsedArguments(item.arguments),
    };
  }
  if (item.type === 'function_call_output') {
    return {
      type: 'tool_response',
      callId: String(item.call_id),
      toolName: '',
      result: item.output,
    };
  }
  return text(leaves(item));
}

function responsesEntries(body: Json): IContent[] {
  const input = Array.isArray(body.input) ? body.input : [];
  return input.filter(isObject).map((item) => ({
    speaker: item.role === 'assistant' || item.type === 'function_call' ? 'ai' : 'human',
    blocks: [responsesBlock(item)],
  }));
}

/** The entries of a request `body` the client sent on `api`; none when it is not an object. */
export function sentEntries(body: unknown, api: ClientApi): IContent[] {
  if (!isObject(body)) return [];
  return api === 'anthropic' ? anthropicEntries(body) : responsesEntries(body);
}
