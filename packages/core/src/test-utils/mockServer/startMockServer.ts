/**
 * A loopback HTTP server that speaks the OpenAI (Chat Completions and Responses), Anthropic and Gemini streaming APIs from a
 * script, and records every request (minus credentials) so tests can assert what was sent.
 * Listens on 127.0.0.1 on an ephemeral port; nothing leaves the machine.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import {
  mockReplySchema,
  normalizeStream,
  type MockHttpError,
  type MockReply,
  type MockStreamReply,
} from './mockScript.js';
import {
  anthropicStream,
  errorBody,
  formatEvent,
  geminiStream,
  malformedEvent,
  openaiStream,
  responsesStream,
  type MockProviderKind,
  type WireStream,
} from './wireFormats.js';

export interface MockRequest {
  readonly provider: MockProviderKind | 'unknown';
  readonly method: string;
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Request headers, lower-cased, without authorization / x-api-key / x-goog-api-key. */
  readonly headers: Readonly<Record<string, string>>;
  /** Whether the client sent a credential header at all. */
  readonly authPresent: boolean;
  /** The parsed JSON body (or the raw text when it was not JSON). */
  readonly body: unknown;
}

export interface MockServerOptions {
  readonly script?: readonly MockReply[];
  /** Served whenever the queue is empty. */
  readonly fallback?: MockReply;
  /**
   * Consulted when the queue is empty, before `fallback`: a reply computed from the request, so a
   * test can stand in for a model that reacts to what it is sent. `undefined` falls through.
   */
  readonly respond?: (request: MockRequest) => MockReply | undefined;
  /** Default 0: an ephemeral port. */
  readonly port?: number;
}

export interface MockServer {
  /** e.g. http://127.0.0.1:54321 */
  readonly url: string;
  readonly port: number;
  /** The `baseUrl` to configure a provider of that kind with. */
  baseUrlFor(provider: MockProviderKind): string;
  /** Every request received, in order (live array). */
  readonly requests: readonly MockRequest[];
  enqueue(...replies: MockReply[]): void;
  /** Replies still queued. */
  readonly remaining: number;
  /** Forgets recorded requests and queued replies (between tests sharing one server). */
  reset(): void;
  close(): Promise<void>;
}

const AUTH_HEADERS = new Set(['authorization', 'x-api-key', 'x-goog-api-key', 'api-key']);
const GEMINI_PATH = /\/models\/([^/:]+):(streamGenerateContent|generateContent)$/;

export async function startMockServer(options: MockServerOptions = {}): Promise<MockServer> {
  const queue: MockReply[] = (options.script ?? []).map(validateReply);
  const fallback = options.fallback === undefined ? undefined : validateReply(options.fallback);
  const requests: MockRequest[] = [];
  const sockets = new Set<Socket>();

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } });
      else res.destroy();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const text = await readBody(req);
    const route = routeOf(req.method ?? 'GET', url.pathname);
    const request = recordRequest(req, url, text, route?.provider ?? 'unknown');
    requests.push(request);
    if (!route) {
      sendJson(res, 404, {
        error: { message: `mock server: no route for ${req.method} ${url.pathname}` },
      });
      return;
    }
    const computed = queue.length === 0 ? options.respond?.(request) : undefined;
    const reply = queue.shift() ?? (computed && validateReply(computed)) ?? fallback;
    if (reply === undefined) {
      sendJson(res, 400, {
        error: { message: `mock server: script exhausted after ${requests.length - 1} replies` },
      });
      return;
    }
    if (reply.kind === 'http-error') {
      sendError(res, route.provider, reply);
      return;
    }
    const model = route.model ?? modelOf(text) ?? 'mock-model';
    const asSse = route.provider !== 'gemini' || url.searchParams.get('alt') === 'sse';
    await sendStream(res, route, reply, model, asSse);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    baseUrlFor: (provider) => (provider === 'openai' ? `${url}/v1` : url),
    requests,
    enqueue: (...replies) => {
      queue.push(...replies.map(validateReply));
    },
    get remaining() {
      return queue.length;
    },
    reset: () => {
      requests.length = 0;
      queue.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function validateReply(reply: MockReply): MockReply {
  mockReplySchema.parse(reply);
  return reply;
}

interface Route {
  readonly provider: MockProviderKind;
  readonly model?: string;
  /** OpenAI's Responses API (`/responses`) rather than Chat Completions. */
  readonly responses?: boolean;
}

function routeOf(method: string, path: string): Route | undefined {
  if (method !== 'POST') return undefined;
  if (path.endsWith('/chat/completions')) return { provider: 'openai' };
  if (path.endsWith('/responses')) return { provider: 'openai', responses: true };
  if (path.endsWith('/v1/messages')) return { provider: 'anthropic' };
  const gemini = GEMINI_PATH.exec(path);
  if (gemini?.[1] !== undefined)
    return { provider: 'gemini', model: decodeURIComponent(gemini[1]) };
  return undefined;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function modelOf(text: string): string | undefined {
  const body = parseJson(text);
  if (typeof body !== 'object' || body === null) return undefined;
  const model = (body as Record<string, unknown>).model;
  return typeof model === 'string' ? model : undefined;
}

function recordRequest(
  req: IncomingMessage,
  url: URL,
  text: string,
  provider: MockRequest['provider'],
): MockRequest {
  const headers: Record<string, string> = {};
  let authPresent = false;
  for (const [name, value] of Object.entries(req.headers)) {
    if (AUTH_HEADERS.has(name)) authPresent = true;
    else if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) if (key !== 'key') query[key] = value;
  if (url.searchParams.has('key')) authPresent = true;
  return {
    provider,
    method: req.method ?? 'GET',
    path: url.pathname,
    query,
    headers,
    authPresent,
    body: parseJson(text),
  };
}

function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function sendError(res: ServerResponse, provider: MockProviderKind, reply: MockHttpError): void {
  sendJson(res, reply.status, errorBody(provider, reply), reply.headers ?? {});
}

function wireFor(route: Route, reply: MockStreamReply, model: string): WireStream {
  const stream = normalizeStream(reply);
  const provider = route.provider;
  if (route.responses === true) return responsesStream(stream, model);
  if (provider === 'openai') return openaiStream(stream, model);
  if (provider === 'anthropic') return anthropicStream(stream, model);
  return geminiStream(stream, model);
}

async function sendStream(
  res: ServerResponse,
  route: Route,
  reply: MockStreamReply,
  model: string,
  asSse: boolean,
): Promise<void> {
  const provider = route.provider;
  const wire = wireFor(route, reply, model);
  const ending = normalizeStream(reply).ending;
  if (!asSse) {
    // Gemini without alt=sse: one JSON array of the chunks.
    const all = [...wire.body, ...wire.terminal].map((e) => e.data);
    sendJson(res, 200, JSON.parse(`[${all.join(',')}]`));
    return;
  }
  res.writeHead(200, {
    'content-type': 'text/event-stream',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
  });
  for (const event of wire.body) await write(res, formatEvent(event));
  switch (ending) {
    case 'complete':
      for (const event of wire.terminal) await write(res, formatEvent(event));
      res.end();
      return;
    case 'malformed':
      await write(res, formatEvent(malformedEvent(provider)));
      res.end();
      return;
    case 'disconnect':
      res.socket?.destroy();
      return;
    case 'hold':
      // Left open: the client aborts, or close() destroys the socket.
      return;
    default: {
      const unreachable: never = ending;
      throw new Error(`unknown ending ${String(unreachable)}`);
    }
  }
}

function write(res: ServerResponse, text: string): Promise<void> {
  if (res.destroyed || res.writableEnded) return Promise.resolve();
  return new Promise((resolve) => {
    res.write(text, () => resolve());
  });
}
