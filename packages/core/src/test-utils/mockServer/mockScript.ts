/**
 * The mock server's script: a queue of replies, each either a stream (text, thinking, tool calls,
 * usage, and how the stream ends) or an HTTP error. The same JSON shape is read from a file by the
 * standalone server, so it is validated with zod; see docs/providers.md for the format.
 */
import { z } from 'zod';

const textList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (typeof v === 'string' ? [v] : v));

export const mockToolCallSchema = z.object({
  /** Omitted: the wire carries no id where the API allows that (Gemini), a made-up one elsewhere. */
  id: z.string().optional(),
  name: z.string(),
  /** An object is JSON-encoded; a string is sent verbatim (use it to send malformed JSON). */
  arguments: z.unknown().optional(),
});

export const mockUsageSchema = z.object({
  promptTokens: z.number().int().nonnegative(),
  completionTokens: z.number().int().nonnegative(),
  cachedTokens: z.number().int().nonnegative().optional(),
  /** Prompt tokens written into the cache (Anthropic's `cache_creation_input_tokens`). */
  cacheWriteTokens: z.number().int().nonnegative().optional(),
});

export const STREAM_ENDINGS = ['complete', 'malformed', 'disconnect', 'hold'] as const;

export const mockStreamReplySchema = z.object({
  kind: z.literal('stream'),
  thinking: textList.optional(),
  text: textList.optional(),
  toolCalls: z.array(mockToolCallSchema).optional(),
  usage: mockUsageSchema.optional(),
  /**
   * complete: a normal end. malformed: an unparseable chunk, then the end. disconnect: the socket
   * is destroyed after the chunks. hold: the connection stays open until the client goes away.
   */
  ending: z.enum(STREAM_ENDINGS).optional(),
});

export const mockHttpErrorSchema = z.object({
  kind: z.literal('http-error'),
  status: z.number().int().min(400).max(599),
  /** Wrapped in each API's error body; ignored when `body` is given. */
  message: z.string().optional(),
  body: z.unknown().optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

export const mockReplySchema = z.discriminatedUnion('kind', [
  mockStreamReplySchema,
  mockHttpErrorSchema,
]);

export const mockScriptSchema = z.object({
  replies: z.array(mockReplySchema),
  /** Served when the queue is empty; without it an empty queue answers HTTP 400. */
  fallback: mockReplySchema.optional(),
});

export type MockToolCall = z.input<typeof mockToolCallSchema>;
export type MockUsage = z.infer<typeof mockUsageSchema>;
export type MockStreamReply = z.input<typeof mockStreamReplySchema>;
export type MockHttpError = z.infer<typeof mockHttpErrorSchema>;
export type MockReply = z.input<typeof mockReplySchema>;
export type MockScript = z.input<typeof mockScriptSchema>;
export type StreamEnding = (typeof STREAM_ENDINGS)[number];

/** A stream reply normalised for the wire writers (text lists always arrays). */
export interface NormalizedStream {
  readonly thinking: readonly string[];
  readonly text: readonly string[];
  readonly toolCalls: readonly MockToolCall[];
  readonly usage: MockUsage | undefined;
  readonly ending: StreamEnding;
}

export function normalizeStream(reply: MockStreamReply): NormalizedStream {
  const list = (v: string | readonly string[] | undefined): readonly string[] =>
    v === undefined ? [] : typeof v === 'string' ? [v] : v;
  return {
    thinking: list(reply.thinking),
    text: list(reply.text),
    toolCalls: reply.toolCalls ?? [],
    usage: reply.usage,
    ending: reply.ending ?? 'complete',
  };
}

/** Streams `text` as the given chunks. */
export function mockText(...text: string[]): MockStreamReply {
  return { kind: 'stream', text };
}

export function mockToolCalls(...toolCalls: MockToolCall[]): MockStreamReply {
  return { kind: 'stream', toolCalls };
}

export function mockHttpError(
  status: number,
  options: Omit<MockHttpError, 'kind' | 'status'> = {},
): MockHttpError {
  return { kind: 'http-error', status, ...options };
}

/** Tool-call arguments as the string the wire carries. */
export function argumentsString(call: MockToolCall): string {
  if (typeof call.arguments === 'string') return call.arguments;
  return JSON.stringify(call.arguments ?? {});
}

/** Splits a string into up to `parts` non-empty pieces (to exercise fragment accumulation). */
export function splitInPieces(text: string, parts: number): string[] {
  if (text.length === 0) return [];
  const size = Math.max(1, Math.ceil(text.length / parts));
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}
