/**
 * `dense proxy`: a local HTTP server between a coding agent and its model API. Chat requests
 * (Anthropic Messages, OpenAI Chat Completions and Responses) get request-side density; every
 * other route goes to the configured upstream unchanged. Only the configured upstreams are ever
 * contacted (no open relay), and only under their base paths; only loopback `Host` names (and the
 * `--host` address) are answered; API keys and bodies are never logged. Chat bodies held at once
 * are bounded (503 with `retry-after` past the bound). The original of every result sent as a
 * pointer is kept in the recall archive before the request goes out.
 */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { RecallArchive } from '../recall/RecallArchive.js';
import { errorMessage } from '../utils/errors.js';
import { getDensePaths } from '../utils/paths.js';
import { BodyBudget } from './bodyBudget.js';
import { BodyTooLarge, errorBody, ProxyBusy, readBody, sendJson } from './proxyHttp.js';
import { chatApi, isAnthropicRoute, isCountTokens, sessionIdOf } from './proxyRoutes.js';
import { agentClient } from './budget/agentClient.js';
import { answerCompaction } from './budget/answerCompaction.js';
import { ConversationStore, conversationKey } from './conversationStore.js';
import { densifyRequest, type DensifyOptions, type DensifyResult } from './densifyRequest.js';
import { forwardRequest, upstreamTarget, type ForwardOutcome } from './forwardRequest.js';
import { isAllowedHost } from './isAllowedHost.js';
import { formatRequestLine } from './proxyReport.js';
import {
  COUNT_TOKENS_ROUTE,
  ProxyStats,
  type ProxyRequestRecord,
  type RequestPricing,
} from './proxyStats.js';
import { RequestRecorder } from './requestRecorder.js';
import { textTokensPerChar } from './images/imageTurnChars.js';
import { requestPricing } from './requestPricing.js';
import { requestPromptFloor } from './requestPromptFloor.js';
import type { WireApi } from './wireHistory.js';

export interface ProxyServerOptions {
  readonly host?: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
  readonly anthropicUpstream?: string;
  readonly openaiUpstream?: string;
  /** Request bodies above this are refused with 413. Default 32 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * Memory chat requests may hold at once (each body byte counts `MEMORY_PER_BODY_BYTE`, as
   * measured); a request past it gets 503 with `retry-after`. Default 256 MiB; one body of
   * `maxBodyBytes` always fits alone.
   */
  readonly maxBytesInFlight?: number;
  /** Conversations kept apart in the stats (default 256). */
  readonly maxStatsConversations?: number;
  /** Estimated prompt tokens at which every prunable result is sent at once. */
  readonly pressureTokens?: number;
  /**
   * Prompt tokens each Anthropic Messages conversation is kept under (older turns become one
   * summary message); undefined: derived from the model; 'off': no working budget.
   */
  readonly workingBudget?: number | 'off';
  /** Answer the client's own compaction request with Dense's summary (default true). */
  readonly answerCompaction?: boolean;
  /** Replies at entry for repeated new results (default true). */
  readonly entryReplies?: boolean;
  /** Also repeated-lines replies at entry (default true). */
  readonly repeatedLinesReplies?: boolean;
  /** Opt-in: write each request (credentials redacted) and its forwarded body here. */
  readonly recordDir?: string;
  /** Receives one line per request (and fail-open reasons). */
  readonly log?: (line: string) => void;
  readonly color?: boolean;
  readonly now?: () => number;
  readonly store?: ConversationStore;
  /** Where pointed results are kept for `dense recall`. Default: `getDensePaths().recallDir`. */
  readonly recall?: RecallArchive;
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
export const DEFAULT_MAX_BYTES_IN_FLIGHT = 256 * 1024 * 1024;
export const DEFAULT_PRESSURE_TOKENS = 150_000;
/** Seconds a client is asked to wait when the proxy holds too many bodies. */
export const BUSY_RETRY_AFTER_SECONDS = 2;

export { chatApi } from './proxyRoutes.js';

function refuse(ctx: Context, response: http.ServerResponse, kind: 'too-large' | 'busy'): void {
  if (kind === 'too-large') {
    const limit = ctx.maxBodyBytes;
    const message = `request body exceeds ${limit} bytes (raise it with --max-body-mb)`;
    sendJson(response, 413, errorBody('request_too_large', message));
    return;
  }
  const message = `busy: ${ctx.budget.memoryLimitBytes} bytes of memory held by requests in flight; retry shortly`;
  sendJson(response, 503, errorBody('overloaded_error', message), {
    'retry-after': String(BUSY_RETRY_AFTER_SECONDS),
  });
}

interface Context {
  readonly options: ProxyServerOptions;
  readonly anthropic: URL;
  readonly openai: URL;
  readonly store: ConversationStore;
  readonly stats: ProxyStats;
  readonly now: () => number;
  readonly maxBodyBytes: number;
  readonly budget: BodyBudget;
  readonly recorder: RequestRecorder | undefined;
  readonly recall: RecallArchive;
}

async function handleChat(
  ctx: Context,
  api: WireApi,
  target: URL,
  exchange: { request: http.IncomingMessage; response: http.ServerResponse },
): Promise<void> {
  const { request, response } = exchange;
  const started = ctx.now();
  const taken = { bytes: 0 };
  try {
    let body: Buffer;
    try {
      body = await readBody(request, ctx.maxBodyBytes, ctx.budget, taken);
    } catch (error) {
      if (error instanceof BodyTooLarge) return refuse(ctx, response, 'too-large');
      if (error instanceof ProxyBusy) return refuse(ctx, response, 'busy');
      throw error;
    }
    await densifyAndForward(ctx, api, target, { request, response, body, started });
  } finally {
    ctx.budget.give(taken.bytes);
  }
}

/** The density step's options for a request read whole. */
function densifyOptions(
  ctx: Context,
  api: WireApi,
  exchange: { request: http.IncomingMessage; body: Buffer; started: number },
  counting: boolean,
): DensifyOptions {
  const { request } = exchange;
  const budget = ctx.options.workingBudget;
  return {
    api,
    body: exchange.body,
    sessionId: sessionIdOf(request),
    store: ctx.store,
    now: exchange.started,
    pressureTokens: ctx.options.pressureTokens ?? DEFAULT_PRESSURE_TOKENS,
    readOnly: counting,
    entryReplies: ctx.options.entryReplies !== false,
    repeatedLinesReplies: ctx.options.repeatedLinesReplies !== false,
    ...(budget === 'off'
      ? {}
      : {
          workingBudget: {
            tokens: budget,
            longContext: String(request.headers['anthropic-beta'] ?? '').includes('context-1m'),
            client: agentClient({ api, userAgent: request.headers['user-agent'] }),
          },
        }),
  };
}

/** Density, the optional recording, the forward and the request's record, for a body read whole. */
async function densifyAndForward(
  ctx: Context,
  api: WireApi,
  target: URL,
  exchange: {
    request: http.IncomingMessage;
    response: http.ServerResponse;
    body: Buffer;
    /** When the request arrived (before its body was read). */
    started: number;
  },
): Promise<void> {
  const { request, response, body, started } = exchange;
  const counting = isCountTokens(request.url ?? '');
  if (!counting && (await replyToCompaction(ctx, api, exchange))) return;
  const budget = ctx.options.workingBudget;
  const result = densifyRequest(densifyOptions(ctx, api, exchange, counting));
  logUnsupported(ctx, result);
  await keepOriginals(ctx, result);
  const recording = { method: request.method, url: request.url, headers: request.headers };
  await ctx.recorder?.record({ ...recording, body, sent: result.body }).catch((error: unknown) => {
    ctx.options.log?.(`dense proxy: could not record the request (${errorMessage(error)})`);
  });
  const bound =
    counting || budget === 'off'
      ? undefined
      : requestPromptFloor({
          ...{ api, request, body, result, budgetTokens: budget },
          ...{ store: ctx.store, now: started },
        });
  const outcome = await forwardRequest({
    target,
    clientRequest: request,
    clientResponse: response,
    body: result.chunks ?? result.body,
    ...(bound === undefined ? {} : { promptFloor: bound.floor }),
  });
  if (outcome.usageRaised === true && bound !== undefined) {
    bound.told();
    ctx.options.log?.('dense proxy: told the client its history is full (it compacts next)');
  }
  const pricing = counting ? undefined : requestPricing({ api, request, body, result });
  const route = counting ? COUNT_TOKENS_ROUTE : api;
  finish(ctx, { route, started, result, pricing, outcome });
}

/** Answers the client's compaction request itself, when it is one and that is on. */
async function replyToCompaction(
  ctx: Context,
  api: WireApi,
  exchange: {
    request: http.IncomingMessage;
    response: http.ServerResponse;
    body: Buffer;
    started: number;
  },
): Promise<boolean> {
  if (ctx.options.answerCompaction === false) return false;
  const sessionId = sessionIdOf(exchange.request);
  const reply = answerCompaction(api, exchange.body);
  if (reply === undefined) return false;
  const conversationId = conversationKey(sessionId, reply.identity);
  const budget = ctx.store.get(conversationId, exchange.started).budget;
  // Dense told the client its history was full: this compaction is Dense's doing.
  const induced = (budget.historySignals ?? 0) > 0;
  budget.historySignals = 0;
  // The summary names recall ids: their originals are kept before the client reads it.
  await keepOriginals(ctx, { conversationId, recalls: reply.recalls });
  exchange.response.writeHead(200, {
    'content-type': reply.contentType,
    'cache-control': 'no-cache',
  });
  exchange.response.end(reply.body);
  const result: DensifyResult = {
    body: exchange.body,
    conversationId,
    schedule: 'none',
    pointers: 0,
    newEdits: 0,
    recalls: [],
    removedChars: 0,
    prefixStable: undefined,
    compaction: {
      kind: 'answered',
      cut: reply.messages,
      ...(induced ? { induced } : {}),
      summaryTokens: Math.round(reply.body.length / 4),
    },
    provider: api === 'anthropic' ? 'anthropic' : 'openai',
  };
  const outcome: ForwardOutcome = { status: 200, usage: undefined, end: 'complete' };
  // Billed nothing; priced against the client's own compaction call (`directClient.ts`).
  const size = exchange.body.length;
  const pricing = { provider: result.provider, originalBytes: size, sentBytes: size };
  finish(ctx, { route: api, started: exchange.started, result, pricing, outcome });
  return true;
}

/** A pointer must not reach the model before its original can be recalled; failures are logged. */
async function keepOriginals(
  ctx: Context,
  result: Pick<DensifyResult, 'conversationId' | 'recalls'>,
): Promise<void> {
  if (result.recalls.length === 0 || result.conversationId === undefined) return;
  try {
    await ctx.recall.put(result.conversationId, result.recalls);
  } catch (error) {
    ctx.options.log?.(`dense proxy: could not keep originals for recall (${errorMessage(error)})`);
  }
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
    pricing: RequestPricing | undefined;
    outcome: ForwardOutcome;
  },
): void {
  const { result, outcome } = input;
  const entry: ProxyRequestRecord = {
    at: input.started,
    route: input.route,
    status: outcome.status,
    end: outcome.end,
    conversationId: result.conversationId,
    durationMs: Math.max(0, Math.round(ctx.now() - input.started)),
    usage: outcome.usage,
    removedChars: result.removedChars,
    pointers: result.pointers,
    ...(result.replies ? { replies: result.replies } : {}),
    newEdits: result.newEdits,
    schedule: result.schedule,
    prefixStable: result.prefixStable,
    ...(result.compaction === undefined ? {} : { compaction: result.compaction }),
    ...(result.unsupported === undefined ? {} : { unsupported: result.unsupported }),
    ...(result.passThrough === undefined ? {} : { passThrough: result.passThrough }),
  };
  if (result.conversationId !== undefined && input.route !== COUNT_TOKENS_ROUTE) {
    const state = ctx.store.get(result.conversationId, ctx.now());
    const usage = outcome.usage;
    const prompt = usage === undefined ? 0 : usage.input + usage.cacheCreation + usage.cacheRead;
    // The upstream's own count calibrates the next request's estimate against the budget.
    // Per character, not per byte: the budget measures the request in characters.
    const perChar = textTokensPerChar({
      promptTokens: prompt,
      sentChars: result.sentChars ?? 0,
      sentImages: input.pricing?.sentImages,
    });
    if (perChar !== undefined) state.budget.promptTokensPerChar = perChar;
  }
  const stored = ctx.stats.record(entry, input.pricing);
  ctx.options.log?.(formatRequestLine(stored, ctx.options.color === true));
}

async function handle(
  ctx: Context,
  request: http.IncomingMessage,
  response: http.ServerResponse,
): Promise<void> {
  const url = request.url ?? '/';
  if (!isAllowedHost(request.headers.host, ctx.options.host ?? '127.0.0.1')) {
    request.resume();
    const message = `Host '${request.headers.host ?? ''}' is not served (only loopback names and --host)`;
    sendJson(response, 403, errorBody('permission_error', message));
    return;
  }
  if (request.method === 'GET' && url.split('?')[0] === '/dense/stats') {
    sendJson(response, 200, ctx.stats.toJSON());
    return;
  }
  const api = chatApi(request.method, url);
  const upstream = api === 'anthropic' || (api === undefined && isAnthropicRoute(request));
  const target = upstreamTarget(upstream ? ctx.anthropic : ctx.openai, url);
  if (target === undefined) {
    request.resume();
    sendJson(
      response,
      400,
      errorBody('invalid_request_error', 'path leaves the upstream base path'),
    );
    return;
  }
  if (api !== undefined) return handleChat(ctx, api, target, { request, response });
  if (Number(request.headers['content-length'] ?? 0) > ctx.maxBodyBytes) {
    request.resume();
    return refuse(ctx, response, 'too-large');
  }
  await forwardRequest({
    target,
    clientRequest: request,
    clientResponse: response,
    body: undefined,
  });
}

function createContext(options: ProxyServerOptions): Context {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const inFlight = options.maxBytesInFlight ?? DEFAULT_MAX_BYTES_IN_FLIGHT;
  return {
    options,
    anthropic: new URL(options.anthropicUpstream ?? DEFAULT_ANTHROPIC_UPSTREAM),
    openai: new URL(options.openaiUpstream ?? DEFAULT_OPENAI_UPSTREAM),
    store: options.store ?? new ConversationStore(),
    stats: new ProxyStats({ maxConversations: options.maxStatsConversations }),
    now: options.now ?? Date.now,
    maxBodyBytes,
    // A single body up to the size limit is always accepted when nothing else is in flight.
    budget: new BodyBudget(inFlight, { maxBodyBytes }),
    recorder: options.recordDir === undefined ? undefined : new RequestRecorder(options.recordDir),
    recall: options.recall ?? new RecallArchive({ dir: getDensePaths().recallDir }),
  };
}

/** Starts listening; resolves once the port is bound. */
export function startProxyServer(options: ProxyServerOptions = {}): Promise<ProxyServer> {
  const ctx = createContext(options);
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
