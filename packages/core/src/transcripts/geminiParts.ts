/**
 * Gemini `Part`s → our blocks, shared by the three gemini-cli importers: text (thought parts become
 * thinking), function calls through the alias table, and function responses with their error and
 * any text parts gemini-cli put after them (inlined `read_many_files` content, rewritten to our
 * inclusion format). Also finds the workspace directory in gemini-cli's session-context message.
 */
import {
  textBlock,
  toolCallBlock,
  type ContentBlock,
  type ContentMetadata,
} from '../services/history/IContent.js';
import { mapAtExpansion, mapInlinedFileParts } from './geminiInclusions.js';
import { isParams, mapToolCall } from './toolAliases.js';

export interface GeminiCall {
  readonly id?: string;
  readonly name: string;
  readonly args: unknown;
}

export interface GeminiResponse {
  readonly id?: string;
  readonly name: string;
  readonly result: string;
  readonly error?: string;
}

export function asCall(value: unknown): GeminiCall | undefined {
  if (!isParams(value) || typeof value.name !== 'string') return undefined;
  return {
    name: value.name,
    args: value.args ?? {},
    ...(typeof value.id === 'string' ? { id: value.id } : {}),
  };
}

function stringify(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
}

export function asResponse(value: unknown): GeminiResponse | undefined {
  if (!isParams(value) || typeof value.name !== 'string') return undefined;
  const response = isParams(value.response) ? value.response : {};
  const id = typeof value.id === 'string' ? { id: value.id } : {};
  if (response.error !== undefined) {
    const error =
      isParams(response.error) && typeof response.error.message === 'string'
        ? response.error.message
        : stringify(response.error);
    return { name: value.name, result: '', error, ...id };
  }
  const output = response.output ?? response.content ?? response;
  return { name: value.name, result: stringify(output), ...id };
}

/** A call block in our canonical form, keeping the recorded name as its description. */
export function geminiCallBlock(call: GeminiCall, id: string): ContentBlock {
  const mapped = mapToolCall('gemini-cli', call.name, call.args);
  return toolCallBlock(id, mapped.name, mapped.parameters, call.name);
}

/** A model text part: thought parts become thinking blocks. */
export function modelTextBlock(part: Readonly<Record<string, unknown>>): ContentBlock | undefined {
  if (typeof part.text !== 'string') return undefined;
  return part.thought === true ? { type: 'thinking', thought: part.text } : textBlock(part.text);
}

/**
 * The function responses among `parts`, each with the text parts that followed it appended (as our
 * inclusion format when they are inlined files), and the text that came before any response.
 */
export function responsesFromParts(parts: readonly unknown[]): {
  readonly responses: GeminiResponse[];
  readonly leadingText: string;
} {
  const responses: { response: GeminiResponse; attached: string[] }[] = [];
  const leading: string[] = [];
  for (const part of parts) {
    if (!isParams(part)) continue;
    const response = asResponse(part.functionResponse);
    if (response) responses.push({ response, attached: [] });
    else if (typeof part.text === 'string') {
      const last = responses[responses.length - 1];
      if (last) last.attached.push(part.text);
      else leading.push(part.text);
    }
  }
  return {
    leadingText: leading.join(''),
    responses: responses.map(({ response, attached }) => {
      if (attached.length === 0) return response;
      const text = attached.join('');
      const inlined = mapInlinedFileParts(text)?.text ?? text;
      return {
        ...response,
        result: response.result === '' ? inlined : `${response.result}\n${inlined}`,
      };
    }),
  };
}

/** A user message: the `@` expansion rewritten; gemini-cli compression snapshots marked as summaries. */
export function userMessage(text: string): { text: string; metadata?: ContentMetadata } {
  const mapped = mapAtExpansion(text)?.text ?? text;
  return text.trimStart().startsWith('<state_snapshot>')
    ? { text: mapped, metadata: { isSummary: true } }
    : { text: mapped };
}

/** The workspace directory named in gemini-cli's first (session-context) message, if any. */
export function findGeminiWorkspaceRoot(text: string): string | undefined {
  const listed = /\*\*Workspace Directories:\*\*\s*\n\s*-\s*(.+)/.exec(text)?.[1];
  const single = /I'm currently working in the directory:\s*(.+)/.exec(text)?.[1];
  const found = (listed ?? single)?.trim();
  return found === undefined || found === '' ? undefined : found;
}

/** Text of a content that may be a string, a part, or a part list. */
export function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  const parts = Array.isArray(content) ? content : [content];
  return parts
    .map((part) => (isParams(part) && typeof part.text === 'string' ? part.text : ''))
    .join('');
}
