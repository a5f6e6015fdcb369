/**
 * `POST /dense/statusline`: Claude Code's status line JSON in, the session's one line out
 * (`formatStatusLine`), from the stats the asking user may see. What Claude Code's `statusLine`
 * command sends here, by `dense statusline` or by `curl` (a few milliseconds instead of a Node
 * start). Always 200 and plain text; an empty body when the input names no session this proxy
 * knows, so a status line never shows an error.
 */
import type * as http from 'node:http';
import { formatStatusLine } from '../meter/formatStatusLine.js';
import { sessionStatus } from '../meter/sessionStatus.js';
import type { ProxyContext } from './proxyContext.js';
import { readBody } from './proxyHttp.js';

export const STATUS_LINE_ROUTE = '/dense/statusline';

/** Claude Code's status line JSON is a few kilobytes; more is not that JSON. */
const MAX_INPUT_BYTES = 1024 * 1024;

/** The `session_id` of Claude Code's status line JSON, or undefined. */
export function claudeSessionIdOf(text: string): string | undefined {
  try {
    const input = JSON.parse(text) as unknown;
    if (typeof input !== 'object' || input === null) return undefined;
    const id = (input as { readonly session_id?: unknown }).session_id;
    return typeof id === 'string' && id !== '' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The line for Claude Code's status line JSON `input`, in `stats` (the JSON `/dense/stats` gives). */
export function statusLineOf(input: string, stats: unknown): string {
  const sessionId = claudeSessionIdOf(input);
  const status = sessionId === undefined ? undefined : sessionStatus(stats, sessionId);
  return status === undefined ? '' : `${formatStatusLine(status)}\n`;
}

/** Answers the route; `stats` gives the stats JSON the asking user may see. */
export async function serveStatusLine(
  ctx: ProxyContext,
  exchange: { request: http.IncomingMessage; response: http.ServerResponse },
  stats: () => unknown,
): Promise<void> {
  const taken = { bytes: 0 };
  let line = '';
  try {
    const input = await readBody(exchange.request, MAX_INPUT_BYTES, ctx.budget, taken);
    line = statusLineOf(input.toString('utf8'), stats());
  } catch {
    // Too large, the proxy busy or the client gone: the status line stays empty.
  } finally {
    ctx.budget.give(taken.bytes);
  }
  exchange.response.writeHead(200, {
    'content-type': 'text/plain; charset=utf-8',
    'cache-control': 'no-store',
  });
  exchange.response.end(line);
}
