/**
 * What the scripted Anthropic Messages upstreams for Claude Code share: reading a request (its
 * content blocks, whether it is a main-loop request, whether it is Claude Code's own compaction
 * request, the highest scripted step whose result it holds) and writing one reply block as
 * Anthropic's event stream with a given prompt usage.
 */
import type { ServerResponse } from 'node:http';
import type { Json } from './loopbackUpstream.js';

export type Block = Json & { type: string };

const COMPACTION_MARKER = 'CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.';

function messagesOf(body: Json): Json[] {
  return Array.isArray(body.messages) ? (body.messages as Json[]) : [];
}

/** Every content block of every message of the request, in order. */
export function blocksOf(body: Json): Block[] {
  return messagesOf(body).flatMap((message) =>
    Array.isArray(message.content) ? (message.content as Block[]) : [],
  );
}

/** A main-loop request: it offers the Read tool (side requests do not). */
export function offersRead(body: Json): boolean {
  return Array.isArray(body.tools) && (body.tools as Json[]).some((tool) => tool.name === 'Read');
}

/** The highest `n` of a tool result whose id is `prefix` + n; -1 when there is none. */
export function highestStepDone(body: Json, prefix: string): number {
  let last = -1;
  for (const block of blocksOf(body)) {
    const id = block.type === 'tool_result' ? String(block.tool_use_id) : '';
    if (id.startsWith(prefix)) last = Math.max(last, Number(id.slice(prefix.length)));
  }
  return last;
}

/** Claude Code's own compaction request (its last user message opens with the marker). */
export function isCompaction(body: Json): boolean {
  const last = messagesOf(body).at(-1);
  const content = Array.isArray(last?.content) ? (last.content as Block[]) : [];
  return content.some(
    (block) => block.type === 'text' && String(block.text).startsWith(COMPACTION_MARKER),
  );
}

function event(name: string, data: Json): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A prompt's usage as Anthropic reports it: base-price input, cache writes and cache reads apart. */
export interface PromptUsage {
  readonly input_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
}

/** One reply block (text or tool_use) as Anthropic's stream, with the given prompt usage. */
export function streamReply(
  response: ServerResponse,
  model: unknown,
  block: Block,
  usage: PromptUsage,
): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const promptTokens =
    usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens;
  const start = block.type === 'tool_use' ? { ...block, input: {} } : { type: 'text', text: '' };
  const delta =
    block.type === 'tool_use'
      ? { type: 'input_json_delta', partial_json: JSON.stringify(block.input) }
      : { type: 'text_delta', text: String(block.text) };
  const message = {
    id: `msg_${promptTokens}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { ...usage, output_tokens: 1 },
  };
  response.end(
    [
      event('message_start', { type: 'message_start', message }),
      event('content_block_start', { type: 'content_block_start', index: 0, content_block: start }),
      event('content_block_delta', { type: 'content_block_delta', index: 0, delta }),
      event('content_block_stop', { type: 'content_block_stop', index: 0 }),
      event('message_delta', {
        type: 'message_delta',
        delta: {
          stop_reason: block.type === 'tool_use' ? 'tool_use' : 'end_turn',
          stop_sequence: null,
        },
        usage: { output_tokens: 20 },
      }),
      event('message_stop', { type: 'message_stop' }),
    ].join(''),
  );
}
