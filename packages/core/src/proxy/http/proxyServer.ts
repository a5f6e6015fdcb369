/**
 * Room `http/`: serve and forward (routes, upstream, shared state); imports any room below.
 *
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
import { RecallArchive } from '../../recall/RecallArchive.js';
import { errorMessage } from '../../utils/errors.js';
import { getDensePaths } from '../../utils/paths.js';
import { BodyBudget } from './bodyBudget.js';
import { BodyTooLarge, errorBody, ProxyBusy, readBody, sendJson } from './proxyHttp.js';
import { chatApi, isAnthropicRoute, isCountTokens } from './proxyRoutes.js';
import { admit, scopedSessionId, serveDenseRoute, type Requester } from './gatewayRoutes.js';
import { agentClient } from '../budget/agentClient.js';
import { ConversationStore } from '../decide/conversationStore.js';
import {
  densifyReading,
  densifyRequest,
  readForDensity,
  type DensifyOptions,
  type DensifyResult,
} from '../densify/densifyRequest.js';
import { calibrate, finishRequest } from './finishRequest.js';
import type { ForwardOutcome } from '../meter/forwardOutcome.js';
import { forwardRequest, upstreamTarget } from './forwardRequest.js';
import { decideOnShared, requestSettlement } from './sharedState.js';
import { keepOriginalsOrDefer } from './keepOriginals.js';
import type { ChatExchange, ProxyContext, ProxyServerOptions } from './proxyContext.js';
import { EarlyLoads } from './earlyLoads.js';
import { isAllowedHost } from './isAllowedHost.js';
import { COUNT_TOKENS_ROUTE, ProxyStats } from '../meter/proxyStats.js';
import { replyToCompaction } from './replyToCompaction.js';
import { RequestRecorder } from './requestRecorder.js';
import { requestPricing } from '../meter/requestPricing.js';
import { requestPromptFloor } from '../meter/requestPromptFloor.js';
import type { WireApi } from '../wire/wireHistory.js';

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
export type { ProxyServerOptions } from './proxyContext.js';

function refuse(
  ctx: ProxyContext,
  response: http.ServerResponse,
  kind: 'too-large' | 'busy',
): void {
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

async function handleChat(
  ctx: ProxyContext,
  api: WireApi,
  target: URL,
  exchange: { request: http.IncomingMessage; response: http.ServerResponse; requester: Requester },
): Promise<void> {
  const { request, response } = exchange;
  const sessionId = scopedSessionId(request, exchange.requester);
  const started = ctx.now();
  const taken = { bytes: 0 };
  const early = ctx.earlyLoads?.forRequest(api, sessionId);
  try {
    let body: Buffer;
    try {
      body = await readBody(request, ctx.maxBodyBytes, ctx.budget, taken, early?.start);
    } catch (error) {
      if (error instanceof BodyTooLarge) return refuse(ctx, response, 'too-large');
      if (error instanceof ProxyBusy) return refuse(ctx, response, 'busy');
      throw error;
    }
    const user = exchange.requester.user;
    await densifyAndForward(ctx, api, target, {
      request,
      response,
      body,
      started,
      sessionId,
      user,
      ...(early === undefined ? {} : { early }),
    });
  } finally {
    ctx.budget.give(taken.bytes);
  }
}

/** The density step's options for a request read whole. */
function densifyOptions(
  ctx: ProxyContext,
  api: WireApi,
  exchange: Pick<ChatExchange, 'request' | 'body' | 'started' | 'sessionId'>,
  counting: boolean,
): DensifyOptions {
  const { request } = exchange;
  const budget = ctx.options.workingBudget;
  return {
    api,
    body: exchange.body,
    sessionId: exchange.sessionId,
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

/** `fn` run on its first call only. */
function once<T>(fn: (value: T) => void): (value: T) => void {
  let done = false;
  return (value) => {
    if (done) return;
    done = true;
    fn(value);
  };
}

/** The opt-in recording of what the client sent and what went upstream. */
async function recordBodies(
  ctx: ProxyContext,
  request: http.IncomingMessage,
  bodies: { readonly body: Buffer; readonly result: DensifyResult },
): Promise<void> {
  const recorder = ctx.recorder;
  // The sent body is joined from its chunks only when it is recorded.
  if (recorder === undefined) return;
  const recording = { method: request.method, url: request.url, headers: request.headers };
  const { body, result } = bodies;
  await recorder.record({ ...recording, body, sent: result.body }).catch((error: unknown) => {
    ctx.options.log?.(`dense proxy: could not record the request (${errorMessage(error)})`);
  });
}

/** Density, the optional recording, the forward and the request's record, for a body read whole. */
async function densifyAndForward(
  ctx: ProxyContext,
  api: WireApi,
  target: URL,
  exchange: ChatExchange,
): Promise<void> {
  const { request, response, body, started } = exchange;
  const counting = isCountTokens(request.url ?? '');
  if (!counting && (await replyToCompaction(ctx, api, exchange))) return;
  const budget = ctx.options.workingBudget;
  const options = densifyOptions(ctx, api, exchange, counting);
  const reading = readForDensity(options);
  exchange.early?.learn(reading.conversationId);
  const { result, shared } = await decideOnShared(ctx, {
    ...{ api, body, id: reading.conversationId, readOnly: counting },
    early: exchange.early?.load(),
    decide: () => densifyReading(options, reading),
  });
  logUnsupported(ctx, result);
  const originals = await keepOriginalsOrDefer(ctx, result, exchange.user, shared);
  await recordBodies(ctx, request, { body, result });
  // Sizes and images read once: the prompt floor and the meter both use them.
  const pricing = counting ? undefined : requestPricing({ api, request, body, result });
  const floorOf = () =>
    pricing === undefined || budget === 'off'
      ? undefined
      : requestPromptFloor({
          ...{ api, request, result, pricing, budgetTokens: budget },
          ...{ store: ctx.store, now: started },
        });
  const bound = floorOf();
  const route = counting ? COUNT_TOKENS_ROUTE : api;
  // With a shared store the request is counted before its state is saved: the meter's state is
  // part of what the next replica reads.
  const record = once((outcome: ForwardOutcome) =>
    finishRequest(ctx, { route, started, result, pricing, outcome, user: exchange.user }),
  );
  const settlement = requestSettlement(ctx, { id: shared, originals }, (outcome, redo) => {
    if (redo) densifyRequest(options);
    if (outcome.usageRaised === true) (redo ? floorOf() : bound)?.told();
    if (!counting) calibrate(ctx, result, pricing, outcome.usage);
    if (shared !== undefined) record(outcome);
  });
  const beforeEnd = settlement.beforeEnd;
  const outcome = await forwardRequest({
    target,
    clientRequest: request,
    clientResponse: response,
    body: result.chunks ?? result.body,
    ...(bound === undefined ? {} : { promptFloor: bound.floor }),
    ...(beforeEnd === undefined ? {} : { beforeEnd }),
  });
  await settlement.finish(outcome);
  if (outcome.usageRaised === true && bound !== undefined)
    ctx.options.log?.('dense proxy: told the client its history is full (it compacts next)');
  record(outcome);
}

function logUnsupported(ctx: ProxyContext, result: DensifyResult): void {
  if (result.unsupported !== undefined && result.firstTimeReason === true) {
    ctx.options.log?.(`dense proxy: forwarding unchanged (${result.unsupported})`);
  }
}

async function handle(
  ctx: ProxyContext,
  request: http.IncomingMessage,
  response: http.ServerResponse,
): Promise<void> {
  if (!isAllowedHost(request.headers.host, ctx.options.host ?? '127.0.0.1')) {
    request.resume();
    const message = `Host '${request.headers.host ?? ''}' is not served (only loopback names and --host)`;
    sendJson(response, 403, errorBody('permission_error', message));
    return;
  }
  const requester = await admit(ctx, request, response);
  if (requester === undefined) return;
  if (await serveDenseRoute(ctx, requester, { request, response })) return;
  const url = request.url ?? '/';
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
  if (api !== undefined) return handleChat(ctx, api, target, { request, response, requester });
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

function createProxyContext(options: ProxyServerOptions): ProxyContext {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const inFlight = options.maxBytesInFlight ?? DEFAULT_MAX_BYTES_IN_FLIGHT;
  const store = options.store ?? new ConversationStore();
  return {
    options,
    anthropic: new URL(options.anthropicUpstream ?? DEFAULT_ANTHROPIC_UPSTREAM),
    openai: new URL(options.openaiUpstream ?? DEFAULT_OPENAI_UPSTREAM),
    store,
    stats: new ProxyStats({ maxConversations: options.maxStatsConversations }),
    now: options.now ?? Date.now,
    maxBodyBytes,
    // A single body up to the size limit is always accepted when nothing else is in flight.
    budget: new BodyBudget(inFlight, { maxBodyBytes }),
    recorder: options.recordDir === undefined ? undefined : new RequestRecorder(options.recordDir),
    recall: options.recall ?? new RecallArchive({ dir: getDensePaths().recallDir }),
    userRecalls: new Map(),
    earlyLoads: options.shared === undefined ? undefined : new EarlyLoads(options.shared, store),
  };
}

/** Starts listening; resolves once the port is bound. */
export function startProxyServer(options: ProxyServerOptions = {}): Promise<ProxyServer> {
  const ctx = createProxyContext(options);
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
