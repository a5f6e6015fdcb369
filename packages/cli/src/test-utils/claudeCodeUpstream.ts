/**
 * A loopback Anthropic Messages upstream scripted as one Claude Code session: Read a file, Edit
 * it, Read it again, answer. It routes by inspecting each request (side requests without the Read
 * tool get a short text reply; count_tokens gets a count) and keeps the raw body of every main
 * request so tests can compare bytes.
 */
import type { ServerResponse } from 'node:http';
import {
  anthropicStream,
  formatEvent,
  mockText,
  mockToolCalls,
  normalizeStream,
} from '@dense/core/test-utils';
import { blocksOf, offersRead, type Block } from './claudeCodeWire.js';
import { parseBody, sendJson, startLoopbackUpstream, type Json } from './loopbackUpstream.js';

export interface ScriptedSession {
  readonly filePath: string;
  readonly oldString: string;
  readonly newString: string;
  readonly answer: string;
}

export interface ClaudeCodeUpstream {
  readonly url: string;
  /** Raw bodies of the main-loop requests (those offering the Read tool), in order. */
  readonly mainBodies: readonly string[];
  /** Method and path of every request. */
  readonly routes: readonly string[];
  close(): Promise<void>;
}

const READ_1 = 'toolu_dense_read_1';
const EDIT_1 = 'toolu_dense_edit_1';
const READ_2 = 'toolu_dense_read_2';

function toolResultIds(body: Json): string[] {
  return blocksOf(body)
    .filter((block) => block.type === 'tool_result')
    .map((block) => String(block.tool_use_id));
}

function nextStep(session: ScriptedSession, body: Json): Block {
  const done = new Set(toolResultIds(body));
  const tool = (id: string, name: string, input: Json): Block => ({
    type: 'tool_use',
    id,
    name,
    input,
  });
  if (!done.has(READ_1)) return tool(READ_1, 'Read', { file_path: session.filePath });
  if (!done.has(EDIT_1)) {
    return tool(EDIT_1, 'Edit', {
      file_path: session.filePath,
      old_string: session.oldString,
      new_string: session.newString,
    });
  }
  if (!done.has(READ_2)) return tool(READ_2, 'Read', { file_path: session.filePath });
  return { type: 'text', text: session.answer };
}

const USAGE = {
  input_tokens: 100,
  cache_creation_input_tokens: 50,
  cache_read_input_tokens: 1000,
  output_tokens: 1,
};

let replies = 0;

/** The reply as Anthropic's stream, written by the mock server's own wire format. */
function sse(response: ServerResponse, model: unknown, block: Block): void {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const reply =
    block.type === 'tool_use'
      ? mockToolCalls({ id: String(block.id), name: String(block.name), arguments: block.input })
      : mockText(String(block.text));
  const usage = { promptTokens: 1150, completionTokens: 12, cachedTokens: 1000 };
  const stream = normalizeStream({ ...reply, usage });
  const wire = anthropicStream(stream, String(model), `msg_${++replies}`);
  response.end([...wire.body, ...wire.terminal].map(formatEvent).join(''));
}

function reply(session: ScriptedSession, bodies: string[], raw: string, response: ServerResponse) {
  // Not JSON: answered like a side request.
  const body = parseBody(raw);
  const main = offersRead(body);
  if (main) bodies.push(raw);
  const block: Block = main ? nextStep(session, body) : { type: 'text', text: 'Side reply' };
  if (body.stream === true) return sse(response, body.model, block);
  response.writeHead(200, { 'content-type': 'application/json' });
  response.end(
    JSON.stringify({
      id: 'msg_side',
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [block],
      stop_reason: block.type === 'tool_use' ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: USAGE,
    }),
  );
}

export async function startClaudeCodeUpstream(
  session: ScriptedSession,
): Promise<ClaudeCodeUpstream> {
  const mainBodies: string[] = [];
  const routes: string[] = [];
  const server = await startLoopbackUpstream(({ method, url, raw }, response) => {
    routes.push(`${method} ${url || '/'}`);
    if (method === 'POST' && url.startsWith('/v1/messages/count_tokens')) {
      sendJson(response, 200, { input_tokens: 1000 });
    } else if (method === 'POST' && url.startsWith('/v1/messages')) {
      reply(session, mainBodies, raw, response);
    } else {
      sendJson(response, 404, { type: 'error', error: { type: 'not_found_error' } });
    }
  });
  return { ...server, mainBodies, routes };
}
