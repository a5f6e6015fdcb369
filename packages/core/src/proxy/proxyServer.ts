/**
 * `dense proxy`: a local HTTP server between a coding agent and its model API. Chat requests
 * (Anthropic Messages, OpenAI Chat Completions and Responses) get request-side density; every
 * other route goes to the configured upstream unchanged. Only the configured upstreams are ever
 * contacted (no open relay); API keys and bodies are never logged.
 */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as path from 'node:path';
import { writeFileAtomic } from '../utils/atomicWrite.js';
import { errorMessage } from '../utils/errors.js';
import { ConversationStore } from './conversationStore.js';
import { densifyRequest, type DensifyResult } from './densifyRequest.js';
import { forwardRequest } from './forwardRequest.js';
import { formatRequestLine, ProxyStats, type ProxyRequestRecord } from './proxyStats.js';
import type { WireApi } from './wireHistory.js';

export interface ProxyServerOptions {
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  readonly anthropicUpstream?: string;
  readonly openaiUpstream?: string;
  /** Request bodies above this are refused with 413. Default 32 MiB. */
  readonly maxBodyBytes?: number;
  /** Estimated prompt tokens at which every prunable result is sent at once. */
  readonly pressureTokens?: number;
  /** Opt-in: write each request (keys redacted) and its forwarded body here. */
  readonly recordDir?: string;
  /** Receives one line per request (and fail-open reasons). */
  readonly log?: (line: string) => void;
  readonly color?: boolean;
  readonly now?: () => number;
  readonly store?: ConversationStore;
}

export interface ProxyServer {
  readonly url: string;
  readonly port: number;
  readonly stats: ProxyStats;
  close(): Promise<void>;
}

export const DEFAULT_ANTHROPIC_UPSTREAM = 'https://api.anthropic.com';
export const DEFAULT_OPENAI_UPSTREAM = 'https://api.openai.com';
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
export const DEFAULT_PRESSURE_TOKENS = 150_000;

const SESSION_HEADERS = ['x-claude-code-session-id', 'session_id', 'x-session-id'];
const SECRET_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'cookie']);

/** The wire API of a chat route, or undefined for routes forwarded as they are. */
export function chatApi(method: string | undefined, url: string): WireApi | undefined {
  if (method !== 'POST') return undefined;
  const pathname = url.split('?')[0] ?? '';
  if (pathname.endsWith('/v1/messages') || isCountTokens(url)) return 'anthropic';
  if (pathname.endsWith('/chat/completions')) return 'openai-chat';
  if (pathname.endsWith('/responses')) return 'openai-responses';
  return undefined;
}

/** Token counting gets the conversation's sticky pointers, so the count matches what is sent. */
function isCountTokens(url: string): boolean {
  return (url.split('?')[0] ?? '').endsWith('/v1/messages/count_tokens');
}

function isAnthropicRoute(request: http.IncomingMessage): boolean {
  const pathname = (request.url ?? '').split('?')[0] ?? '';
  return pathname.startsWith('/v1/messages') || request.headers['anthropic-version'] !== undefined;
}

class BodyTooLarge extends Error {}

function readBody(request: http.IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        request.resume();
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

function tooLarge(limit: number): unknown {
  return {
    type: 'error',
    error: {
      type: 'request_too_large',
      message: `dense proxy: request body exceeds ${limit} bytes (raise it with --max-body-mb)`,
    },
  };
}

function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
}

function sessionIdOf(request: http.IncomingMessage): string | undefined {
  for (const name of SESSION_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}

function redactedHeaders(request: http.IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    out[name] = SECRET_HEADERS.has(name) ? '[redacted]' : String(value);
  }
  return out;
}

interface Context {
  readonly options: ProxyServerOptions;
  readonly anthropic: URL;
  readonly openai: URL;
  readonly store: ConversationStore;
  readonly stats: ProxyStats;
  readonly now: () => number;
  recorded: number;
}

async function record(ctx: Context, request: http.IncomingMessage, body: Buffer, sent: Buffer) {
  if (ctx.options.recordDir === undefined) return;
  const index = String(++ctx.recorded).padStart(5, '0');
  const entry = {
    method: request.method,
    url: request.url,
    headers: redactedHeaders(request),
    body: body.toString('utf8'),
    forwarded: sent.equals(body) ? '(unchanged)' : sent.toString('utf8'),
  };
  await writeFileAtomic(path.join(ctx.options.recordDir, `${index}.json`), JSON.stringify(entry));
}

async function handleChat(
  ctx: Context,
  api: WireApi,
  request: http.IncomingMessage,
  response: http.ServerResponse,
): Promise<void> {
  const started = ctx.now();
  const limit = ctx.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  let body: Buffer;
  try {
    body = await readBody(request, limit);
  } catch (error) {
    if (!(error instanceof BodyTooLarge)) throw error;
    sendJson(response, 413, tooLarge(limit));
    return;
  }
  const result = densifyRequest({
    api,
    body,
    sessionId: sessionIdOf(request),
    store: ctx.store,
    now: started,
    pressureTokens: ctx.options.pressureTokens ?? DEFAULT_PRESSURE_TOKENS,
    readOnly: isCountTokens(request.url ?? ''),
  });
  logUnsupported(ctx, result);
  await record(ctx, request, body, result.body).catch((error: unknown) => {
    ctx.options.log?.(`dense proxy: could not record the request (${errorMessage(error)})`);
  });
  const upstream = api === 'anthropic' ? ctx.anthropic : ctx.openai;
  const outcome = await forwardRequest({
    upstream,
    clientRequest: request,
    clientResponse: response,
    body: result.body,
  });
  const counting = isCountTokens(request.url ?? '');
  finish(ctx, { route: counting ? 'anthropic count_tokens' : api, started, result, ...outcome });
}

function logUnsupported(ctx: Context, result: DensifyResult): void {
  if (result.unsupported !== undefined && result.firstTimeReason === true) {
    ctx.options.log?.(`dense proxy: forwarding unchanged (${result.unsupported})`);
  }
}

function finish(
  ctx: Context,
  input: {
    route: string;
    started: number;
    result: DensifyResult;
    status: number;
    usage: ProxyRequestRecord['usage'];
  },
): void {
  const { result } = input;
  const entry: ProxyRequestRecord = {
    at: input.started,
    route: input.route,
    status: input.status,
    conversationId: result.conversationId,
    durationMs: Math.max(0, Math.round(ctx.now() - input.started)),
    usage: input.usage,
    removedChars: result.removedChars,
    pointers: result.pointers,
    newEdits: result.newEdits,
    schedule: result.schedule,
    prefixStable: result.prefixStable,
    ...(result.unsupported === undefined ? {} : { unsupported: result.unsupported }),
  };
  if (result.conversationId !== undefined && input.route !== 'anthropic count_tokens') {
    ctx.store.get(result.conversationId, ctx.now()).totals.requests++;
  }
  ctx.stats.record(entry);
  ctx.options.log?.(formatRequestLine(entry, ctx.options.color === true));
}

async function handle(
  ctx: Context,
  request: http.IncomingMessage,
  response: http.ServerResponse,
): Promise<void> {
  const url = request.url ?? '/';
  if (request.method === 'GET' && url.split('?')[0] === '/dense/stats') {
    sendJson(response, 200, ctx.stats.toJSON());
    return;
  }
  const api = chatApi(request.method, url);
  if (api !== undefined) return handleChat(ctx, api, request, response);
  const limit = ctx.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (Number(request.headers['content-length'] ?? 0) > limit) {
    request.resume();
    sendJson(response, 413, tooLarge(limit));
    return;
  }
  const upstream = isAnthropicRoute(request) ? ctx.anthropic : ctx.openai;
  await forwardRequest({
    upstream,
    clientRequest: request,
    clientResponse: response,
    body: undefined,
  });
}

/** Starts listening; resolves once the port is bound. */
export function startProxyServer(options: ProxyServerOptions = {}): Promise<ProxyServer> {
  const ctx: Context = {
    options,
    anthropic: new URL(options.anthropicUpstream ?? DEFAULT_ANTHROPIC_UPSTREAM),
    openai: new URL(options.openaiUpstream ?? DEFAULT_OPENAI_UPSTREAM),
    store: options.store ?? new ConversationStore(),
    stats: new ProxyStats(),
    now: options.now ?? Date.now,
    recorded: 0,
  };
  const sockets = new Set<Socket>();
  const server = http.createServer((request, response) => {
    handle(ctx, request, response).catch(() => {
      if (!response.headersSent) sendJson(response, 500, { error: 'dense proxy internal error' });
      else response.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      const { port } = server.address() as AddressInfo;
      const shown = host.includes(':') ? `[${host}]` : host;
      resolve({
        url: `http://${shown}:${port}`,
        port,
        stats: ctx.stats,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
