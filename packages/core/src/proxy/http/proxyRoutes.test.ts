import type * as http from 'node:http';
import { describe, expect, it } from 'vitest';
import { sessionIdOf } from './proxyRoutes.js';

const withHeaders = (headers: http.IncomingHttpHeaders) =>
  ({ headers }) as unknown as http.IncomingMessage;

describe('the session header', () => {
  it("#24.2 Codex 0.169's `session-id` header names its conversation (its requests carry no other)", () => {
    expect(sessionIdOf(withHeaders({ 'session-id': 'codex-thread-1' }))).toBe('codex-thread-1');
    expect(sessionIdOf(withHeaders({ 'x-claude-code-session-id': 'cc-1' }))).toBe('cc-1');
    expect(sessionIdOf(withHeaders({}))).toBeUndefined();
  });
});
