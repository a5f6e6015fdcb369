/**
 * Dense's own session recording: JSONL whose first line is a header
 * `{"kind":"session","version":1,"sessionId","startedAt","workspaceRoot","provider","model"}`, then
 * one `{"kind":"content","content":<IContent>}` line per history entry in the order it was added,
 * and optional `{"kind":"event",…}` lines (compression and the like) that importers skip. The CLI's
 * session recorder writes it with the serializers here; `parseSessionLine` reads it back.
 */
import { z } from 'zod';
import type { IContent } from '../services/history/IContent.js';

export const SESSION_FORMAT_VERSION = 1;

const TextSchema = z.object({ type: z.literal('text'), text: z.string() });
const ToolCallSchema = z.object({
  type: z.literal('tool_call'),
  id: z.string(),
  name: z.string(),
  parameters: z.unknown(),
  description: z.string().optional(),
});
const ToolResponseSchema = z.object({
  type: z.literal('tool_response'),
  callId: z.string(),
  toolName: z.string(),
  result: z.unknown(),
  error: z.string().optional(),
  isComplete: z.boolean().optional(),
  original: z.string().optional(),
});
const MediaSchema = z.object({
  type: z.literal('media'),
  mimeType: z.string(),
  data: z.string(),
  encoding: z.enum(['url', 'base64']),
  caption: z.string().optional(),
  filename: z.string().optional(),
});
const ThinkingSchema = z.object({
  type: z.literal('thinking'),
  thought: z.string(),
  signature: z.string().optional(),
});
const CodeSchema = z.object({
  type: z.literal('code'),
  code: z.string(),
  language: z.string().optional(),
});

const BlockSchema = z.discriminatedUnion('type', [
  TextSchema,
  ToolCallSchema,
  ToolResponseSchema,
  MediaSchema,
  ThinkingSchema,
  CodeSchema,
]);

export const IContentSchema = z.object({
  speaker: z.enum(['human', 'ai', 'tool']),
  blocks: z.array(BlockSchema),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export const SessionHeaderSchema = z.object({
  kind: z.literal('session'),
  version: z.number().int(),
  sessionId: z.string().min(1),
  startedAt: z.string().min(1),
  workspaceRoot: z.string(),
  provider: z.string(),
  model: z.string(),
  /** The endpoint the session used, when not the provider's default (never a key). */
  baseUrl: z.string().optional(),
});

export type SessionHeader = Omit<z.infer<typeof SessionHeaderSchema>, 'kind' | 'version'>;

const ContentLineSchema = z.object({ kind: z.literal('content'), content: IContentSchema });
const EventLineSchema = z.looseObject({ kind: z.literal('event') });

export type SessionLine =
  | { readonly kind: 'session'; readonly header: SessionHeader; readonly version: number }
  | { readonly kind: 'content'; readonly content: IContent }
  | { readonly kind: 'event'; readonly event: Readonly<Record<string, unknown>> }
  | { readonly kind: 'invalid'; readonly reason: string };

/** The header line (with its trailing newline). */
export function serializeSessionHeader(header: SessionHeader): string {
  return `${JSON.stringify({ kind: 'session', version: SESSION_FORMAT_VERSION, ...header })}\n`;
}

/** One history entry as a line (with its trailing newline). */
export function serializeSessionContent(content: IContent): string {
  return `${JSON.stringify({ kind: 'content', content })}\n`;
}

/** An event line (with its trailing newline); importers skip events. */
export function serializeSessionEvent(
  event: Readonly<Record<string, unknown>> & { readonly type: string },
): string {
  return `${JSON.stringify({ ...event, kind: 'event' })}\n`;
}

function issueText(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid line';
  const where = issue.path.length === 0 ? '' : ` at ${issue.path.join('.')}`;
  return `${issue.message}${where}`;
}

/** Reads one line. Never throws: a bad line comes back as `invalid` with the reason. */
export function parseSessionLine(line: string): SessionLine {
  return readSessionLine(line).parsed;
}

/** A line as read: its JSON value (undefined when the line is not JSON) and the session line. */
export interface ReadSessionLine {
  readonly json: unknown;
  readonly parsed: SessionLine;
}

/**
 * `parseSessionLine` that also hands back the JSON it parsed, for a caller that reads the raw
 * record too (the importer's call counter). Never throws.
 */
export function readSessionLine(line: string): ReadSessionLine {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    return { json: undefined, parsed: { kind: 'invalid', reason: 'invalid JSON' } };
  }
  return { json, parsed: sessionLineOf(json) };
}

function sessionLineOf(value: unknown): SessionLine {
  const kind =
    typeof value === 'object' && value !== null ? (value as { kind?: unknown }).kind : undefined;
  if (kind === 'session') {
    const parsed = SessionHeaderSchema.safeParse(value);
    if (!parsed.success)
      return { kind: 'invalid', reason: `session header: ${issueText(parsed.error)}` };
    const { kind: _kind, version, ...header } = parsed.data;
    return { kind: 'session', header, version };
  }
  if (kind === 'content') {
    const parsed = ContentLineSchema.safeParse(value);
    if (!parsed.success)
      return { kind: 'invalid', reason: `content line: ${issueText(parsed.error)}` };
    const content: IContent = parsed.data.content;
    return { kind: 'content', content };
  }
  if (kind === 'event') {
    const parsed = EventLineSchema.safeParse(value);
    return parsed.success
      ? { kind: 'event', event: parsed.data }
      : { kind: 'invalid', reason: 'event line' };
  }
  return { kind: 'invalid', reason: 'expected "kind" to be "session", "content" or "event"' };
}
