/**
 * A loopback Anthropic Messages upstream scripted as a long Claude Code session: Read
 * `files[0]`, `files[1]`, … one per turn, then answer. It reports usage from the real size of each
 * prompt (characters / 4, all uncached), as a real API would, so Claude Code's own auto-compaction
 * fires when the prompt nears its threshold. It answers Claude Code's compaction request with a
 * short summary and counts it. The next step is the one after the highest step whose result the
 * request holds, so the script survives the client's own compaction. After the last Read, when
 * the request names a recall id for `files[0]` (Dense's summary of a compaction does), the model
 * runs `dense recall <id>` through Bash before it answers.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';

export interface LongSession {
  /** Absolute paths to Read, one per turn. */
  readonly files: readonly string[];
  readonly answer: string;
  /** Reported usage = prompt characters / 4 × this (default 1): tests what the client goes by. */
  readonly usageScale?: number;
}

export interface MainRequest {
  readonly raw: string;
  /** Prompt tokens reported for it (characters / 4). */
  readonly reportedTokens: number;
}

export interface LongUpstream {
  readonly url: string;
  /** Main-loop requests (those offering Read), compaction requests excluded. */
  readonly main: readonly MainRequest[];
  /** Claude Code's own compaction requests that reached this upstream. */
  readonly compactionRequests: readonly string[];
  close(): Promise<void>;
}

type Json = Record<string, unknown>;
type Block = Json & { type: string };

export const STEP_ID = 'toolu_dense_step_';
export const RECALL_ID = 'toolu_dense_recall';
const COMPACTION_MARKER = 'CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.';

function blocksOf(body: Json): Block[] {
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  return messages.flatMap((message) =>
    Array.isArray(message.content) ? (message.content as Block[]) : [],
  );
}

function lastStepDone(body: Json): number {
  let last = -1;
  for (const block of blocksOf(body)) {
    const id = block.type === 'tool_result' ? String(block.tool_use_id) : '';
    if (id.startsWith(STEP_ID)) last = Math.max(last, Number(id.slice(STEP_ID.length)));
  }
  return last;
}

/** Claude Code's own compaction request (its last user message opens with the marker). */
export function isCompaction(body: Json): boolean {
  const messages = Array.isArray(body.messages) ? (body.messages as Json[]) : [];
  const last = messages.at(-1);
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

/** The usage of an uncached prompt of `promptTokens`. */
const uncachedUsage = (promptTokens: number): PromptUsage => ({
  input_tokens: promptTokens,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
});

/** One reply block (text or tool_use) as Anthropic's stream, with the given prompt usage. */
export function streamReply(
  response: ServerResponse,
  model: unknown,
  block: Json & { type: string },
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

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The recall id a summary line in the request names for a Read of `file`. */
function recallIdFor(raw: string, file: string): string | undefined {
  const line = new RegExp(`${escaped(path.basename(file))}[^\\]]*recall id (r[0-9a-f]{10})`);
  return line.exec(raw)?.[1];
}

function nextBlock(session: LongSession, body: Json, raw: string): Block {
  const step = lastStepDone(body) + 1;
  const file = session.files[step];
  if (file !== undefined) {
    return { type: 'tool_use', id: `${STEP_ID}${step}`, name: 'Read', input: { file_path: file } };
  }
  const recalled = blocksOf(body).some(
    (block) => block.type === 'tool_result' && block.tool_use_id === RECALL_ID,
  );
  const id = recalled ? undefined : recallIdFor(raw, session.files[0] ?? '');
  if (id === undefined) return { type: 'text', text: session.answer };
  const input = { command: `dense recall ${id}`, description: 'Recall the first file' };
  return { type: 'tool_use', id: RECALL_ID, name: 'Bash', input };
}

export function startLongUpstream(session: LongSession): Promise<LongUpstream> {
  const main: MainRequest[] = [];
  const compactionRequests: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const url = request.url ?? '';
      const promptTokens = Math.ceil((raw.length / 4) * (session.usageScale ?? 1));
      if (url.startsWith('/v1/messages/count_tokens')) {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ input_tokens: promptTokens }));
        return;
      }
      let body: Json = {};
      try {
        body = JSON.parse(raw) as Json;
      } catch {
        // Not JSON: answered like a side request.
      }
      const offersRead =
        Array.isArray(body.tools) && (body.tools as Json[]).some((tool) => tool.name === 'Read');
      let block: Block = { type: 'text', text: 'Side reply' };
      if (offersRead && isCompaction(body)) {
        compactionRequests.push(raw);
        block = {
          type: 'text',
          text: '<analysis>mock</analysis>\n\n<summary>Mock summary: reading the files one by one.</summary>',
        };
      } else if (offersRead) {
        main.push({ raw, reportedTokens: promptTokens });
        block = nextBlock(session, body, raw);
      }
      streamReply(response, body.model, block, uncachedUsage(promptTokens));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        main,
        compactionRequests,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
