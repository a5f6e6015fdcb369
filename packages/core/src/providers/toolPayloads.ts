/**
 * How tool calls and results become wire values, shared by the three conversions: argument
 * parsing that never throws, result stringification, and text stand-ins for blocks an API cannot
 * carry.
 */
import type { CodeBlock, MediaBlock, ToolResponseBlock } from '../services/history/IContent.js';

/**
 * Parses streamed tool-call arguments. Valid JSON gives its value (an empty string gives `{}`);
 * anything else is returned as the raw string, which the tool layer reports back to the model as
 * a tool error instead of crashing the turn.
 */
export function parseToolArguments(raw: string): unknown {
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Tool-call parameters as the object APIs require. Non-object parameters (a malformed argument
 * string the model sent) are wrapped so the model still sees what it sent.
 */
export function argumentsObject(parameters: unknown): Record<string, unknown> {
  if (parameters === undefined || parameters === null) return {};
  return isPlainObject(parameters) ? parameters : { raw_arguments: parameters };
}

/** Tool-call parameters as a JSON string (OpenAI); a raw string is sent back as it came. */
export function argumentsJson(parameters: unknown): string {
  if (typeof parameters === 'string') return parameters;
  return safeStringify(parameters ?? {});
}

/** A tool result as text: strings as they are, anything else JSON-encoded. */
export function stringifyToolResult(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined || result === null) return '';
  return safeStringify(result);
}

/** What the model reads for a response: the result, or the error (then the result, if any). */
export function toolResponseText(block: ToolResponseBlock): string {
  const result = stringifyToolResult(block.result);
  if (block.error === undefined) return result;
  return result === '' ? `Error: ${block.error}` : `Error: ${block.error}\n${result}`;
}

export function codeBlockText(block: CodeBlock): string {
  return `\`\`\`${block.language ?? ''}\n${block.code}\n\`\`\``;
}

/** Stands in for media an API cannot take in that position. */
export function mediaPlaceholder(block: MediaBlock): string {
  const name = block.filename === undefined ? '' : ` ${block.filename}`;
  const caption = block.caption === undefined ? '' : `: ${block.caption}`;
  return `[${block.mimeType}${name} omitted${caption}]`;
}

export function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The user turn put first when a history starts with the model (after truncation, or in an
 * imported session): Anthropic and Gemini reject a conversation whose first turn is not the user's.
 */
export const LEADING_USER_TURN_TEXT = '[Earlier conversation omitted.]';
