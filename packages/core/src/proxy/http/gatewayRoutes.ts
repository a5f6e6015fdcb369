/**
 * The proxy as a gateway for several users: who sends each request (a Dense token, required off
 * loopback), the request's target without the token, each user's conversations kept apart, and
 * Dense's own routes scoped to the asking user: `/dense/stats` (JSON) and `/dense/dashboard`
 * (a page). Operators named with `--admin` and requests without a user on a loopback bind see the
 * team; everyone else sees only their own figures. `GET /dense/recall/<id>` answers an original
 * from the asking user's own recall archive (what `dense recall` reads from a gateway);
 * `POST /dense/statusline` a session's status line from the figures the user sees.
 */
import type * as http from 'node:http';
import { authenticateRequest } from '../../gateway/auth/authenticateRequest.js';
import { requiresAuth } from '../../gateway/auth/requiresAuth.js';
import { dashboardPage } from '../../gateway/dashboard/dashboardPage.js';
import type { StatsTimeline } from '../../gateway/dashboard/StatsTimeline.js';
import type { ProxyContext } from './proxyContext.js';
import { sendJson } from './proxyHttp.js';
import { sessionIdOf } from './proxyRoutes.js';
import { serveStatusLine, STATUS_LINE_ROUTE } from './statusLineRoute.js';
import { recallOf } from './userRecall.js';
import { recallMissingMessage } from '../../recall/RecallArchive.js';
import { errorMessage } from '../../utils/errors.js';

/** Who sent a request: a token's user, or nobody (tokens optional on a loopback bind). */
export interface Requester {
  readonly user: string | undefined;
}

/** The content security policy of the dashboard: nothing is loaded from anywhere. */
const PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:";

/**
 * The request's user, with `request.url` set to its target without any `/t/<token>` prefix; or
 * undefined once a refusal has been sent.
 */
export async function admit(
  ctx: ProxyContext,
  request: http.IncomingMessage,
  response: http.ServerResponse,
): Promise<Requester | undefined> {
  const required = requiresAuth(ctx.options.host ?? '127.0.0.1');
  const tokens = ctx.options.tokens;
  if (tokens === undefined) {
    if (!required) return { user: undefined };
    request.resume();
    const message = 'dense proxy: this gateway has no token store; start it with tokens';
    sendJson(response, 503, { type: 'error', error: { type: 'api_error', message } });
    return undefined;
  }
  const outcome = await authenticateRequest({
    headers: request.headers,
    url: request.url ?? '/',
    store: tokens,
    required,
  });
  if (outcome.kind === 'refused') {
    request.resume();
    if (outcome.detail !== undefined)
      ctx.options.log?.(`dense proxy: token store: ${outcome.detail}`);
    sendJson(response, outcome.status, outcome.body);
    return undefined;
  }
  request.url = outcome.url;
  return { user: outcome.user };
}

/**
 * The session the density step keys a conversation by: the client's session header, under the
 * user's name when there is one (two users never share a conversation's state or reads).
 */
export function scopedSessionId(
  request: http.IncomingMessage,
  requester: Requester,
): string | undefined {
  const session = sessionIdOf(request);
  if (requester.user === undefined) return session;
  return `user:${requester.user}/${session ?? ''}`;
}

/** The user's conversations in this process's stats, keyed `session:<session>:<hash>`. */
function ownConversations(ctx: ProxyContext, requester: Requester): Record<string, unknown> {
  const prefix = `session:user:${requester.user ?? ''}/`;
  const own: Record<string, unknown> = {};
  for (const [id, totals] of Object.entries(ctx.stats.toJSON().conversations)) {
    if (id.startsWith(prefix)) own[`session:${id.slice(prefix.length)}`] = totals;
  }
  return own;
}

/**
 * The process's own record (per conversation, recent requests) for those who see the team; a
 * user gets their own conversations, keyed as without a gateway (what the status line reads).
 */
function ownStats(ctx: ProxyContext, requester: Requester): Record<string, unknown> {
  return seesTeam(ctx, requester)
    ? { ...ctx.stats.toJSON() }
    : { conversations: ownConversations(ctx, requester) };
}

function seesTeam(ctx: ProxyContext, requester: Requester): boolean {
  if (requester.user === undefined) return true;
  return ctx.options.admins?.includes(requester.user) === true;
}

/** The timeline the asking user's figures come from: the team's across replicas when shared. */
async function timelineOf(ctx: ProxyContext): Promise<StatsTimeline | undefined> {
  return (await ctx.options.teamTimeline?.()) ?? ctx.options.timeline;
}

/** `GET /dense/recall/<id>`: an original from the asking user's own archive. */
export const RECALL_ROUTE = '/dense/recall/';

async function serveRecall(
  ctx: ProxyContext,
  requester: Requester,
  response: http.ServerResponse,
  id: string,
): Promise<void> {
  const found = await recallOf(ctx, requester.user)
    .lookup(id)
    .catch((error: unknown) => ({ kind: 'failed' as const, message: errorMessage(error) }));
  if (found.kind === 'found') {
    response.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': String(found.bytes.length),
      'cache-control': 'no-store',
    });
    response.end(found.bytes);
  } else if (found.kind === 'missing') {
    const message = recallMissingMessage(id, found.reason);
    sendJson(response, found.reason === 'malformed' ? 400 : 404, { reason: found.reason, message });
  } else {
    sendJson(response, 503, { reason: 'unreadable', message: found.message });
  }
}

/** Serves Dense's own routes; false when the request is not one of them. */
export async function serveDenseRoute(
  ctx: ProxyContext,
  requester: Requester,
  exchange: { request: http.IncomingMessage; response: http.ServerResponse },
): Promise<boolean> {
  const { request, response } = exchange;
  const path = (request.url ?? '/').split('?')[0] ?? '/';
  if (request.method === 'POST' && path === STATUS_LINE_ROUTE) {
    await serveStatusLine(ctx, exchange, () => ownStats(ctx, requester));
    return true;
  }
  if (request.method !== 'GET') return false;
  if (path.startsWith(RECALL_ROUTE)) {
    await serveRecall(
      ctx,
      requester,
      response,
      decodeURIComponent(path.slice(RECALL_ROUTE.length)),
    );
    return true;
  }
  if (path !== '/dense/stats' && path !== '/dense/dashboard') return false;
  const team = seesTeam(ctx, requester);
  const timeline = await timelineOf(ctx);
  const scoped = timeline?.teamStats(team ? undefined : requester.user);
  if (path === '/dense/stats') {
    const own = ownStats(ctx, requester);
    sendJson(response, 200, { ...own, ...(scoped === undefined ? {} : { team: scoped }) });
    return true;
  }
  if (scoped === undefined) {
    sendJson(response, 404, { error: 'this proxy keeps no timeline' });
    return true;
  }
  const page = dashboardPage(scoped, { admin: team });
  response.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': PAGE_POLICY,
    'cache-control': 'no-store',
  });
  response.end(page);
  return true;
}
