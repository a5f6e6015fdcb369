/** How the proxy reads a request's route: its wire API, token counting, Anthropic, the session. */
import type * as http from 'node:http';
import type { WireApi } from '../wire/wireHistory.js';

/** Claude Code's, Codex 0.169's (`session-id`) and other clients' session headers. */
const SESSION_HEADERS = ['x-claude-code-session-id', 'session-id', 'session_id', 'x-session-id'];

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
export function isCountTokens(url: string): boolean {
  return (url.split('?')[0] ?? '').endsWith('/v1/messages/count_tokens');
}

export function isAnthropicRoute(request: http.IncomingMessage): boolean {
  const pathname = (request.url ?? '').split('?')[0] ?? '';
  return pathname.startsWith('/v1/messages') || request.headers['anthropic-version'] !== undefined;
}

export function sessionIdOf(request: http.IncomingMessage): string | undefined {
  for (const name of SESSION_HEADERS) {
    const value = request.headers[name];
    if (typeof value === 'string' && value !== '') return value;
  }
  return undefined;
}
