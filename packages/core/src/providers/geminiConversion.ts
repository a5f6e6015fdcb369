/**
 * IContent history → Gemini `contents` and function declarations (pure). Tool calls become
 * `functionCall` parts, tool responses `functionResponse` parts (with the function's name) in a
 * user turn; consecutive same-role turns are merged. A thinking block's signature rides on the
 * part that follows it, as Gemini requires for multi-turn function calling.
 */
import type { Content, FunctionDeclaration, Part, Tool } from '@google/genai';
import type { ContentBlock, IContent, MediaBlock } from '../services/history/IContent.js';
import type { ToolSchema } from './IProvider.js';
import { pairToolCalls } from './pairToolCalls.js';
import {
  argumentsObject,
  LEADING_USER_TURN_TEXT,
  codeBlockText,
  mediaPlaceholder,
  stringifyToolResult,
} from './toolPayloads.js';

export function toGeminiContents(contents: readonly IContent[]): Content[] {
  const out: { role: 'user' | 'model'; parts: Part[] }[] = [];
  for (const entry of pairToolCalls(contents).contents) {
    const role = entry.speaker === 'ai' ? 'model' : 'user';
    const parts = role === 'model' ? modelParts(entry.blocks) : userParts(entry.blocks);
    if (parts.length === 0) continue;
    const last = out.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else out.push({ role, parts });
  }
  if (out[0]?.role === 'model')
    out.unshift({ role: 'user', parts: [{ text: LEADING_USER_TURN_TEXT }] });
  return out;
}

export function toGeminiTools(tools: readonly ToolSchema[] | undefined): Tool[] {
  if (!tools || tools.length === 0) return [];
  const functionDeclarations: FunctionDeclaration[] = tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    parametersJsonSchema: tool.parameters,
  }));
  return [{ functionDeclarations }];
}

function userParts(blocks: readonly ContentBlock[]): Part[] {
  const parts: Part[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        if (block.text !== '') parts.push({ text: block.text });
        break;
      case 'code':
        parts.push({ text: codeBlockText(block) });
        break;
      case 'media':
        parts.push(mediaPart(block));
        break;
      case 'tool_response':
        parts.push({
          functionResponse: {
            id: block.callId,
            name: block.toolName,
            response:
              block.error === undefined
                ? { output: stringifyToolResult(block.result) }
                : { error: block.error, output: stringifyToolResult(block.result) },
          },
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
  return parts;
}

function mediaPart(block: MediaBlock): Part {
  return block.encoding === 'base64'
    ? { inlineData: { mimeType: block.mimeType, data: block.data } }
    : { fileData: { mimeType: block.mimeType, fileUri: block.data } };
}

function modelParts(blocks: readonly ContentBlock[]): Part[] {
  const parts: Part[] = [];
  let signature: string | undefined;
  const push = (part: Part): void => {
    parts.push(signature === undefined ? part : { ...part, thoughtSignature: signature });
    signature = undefined;
  };
  for (const block of blocks) {
    if (block.type === 'thinking') {
      if (block.signature !== undefined && block.signature !== '') signature = block.signature;
    } else if (block.type === 'text') {
      if (block.text !== '') push({ text: block.text });
    } else if (block.type === 'code') {
      push({ text: codeBlockText(block) });
    } else if (block.type === 'media') {
      push({ text: mediaPlaceholder(block) });
    } else if (block.type === 'tool_call') {
      push({
        functionCall: { id: block.id, name: block.name, args: argumentsObject(block.parameters) },
      });
    }
  }
  return parts;
}
