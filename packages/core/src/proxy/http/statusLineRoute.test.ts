import { afterEach, describe, expect, it } from 'vitest';
import { closeLoopback, proxyTo, send, stub, messagesReply } from '../test-utils/loopbackProxy.js';
import { longSessionBody } from '../test-utils/longSession.js';
import { claudeSessionIdOf, statusLineOf } from './statusLineRoute.js';

const SESSION = '5d0f6a52-7777-4888-9999-aaaabbbbcccc';

const reply = messagesReply(4);

const claudeCodeInput = (sessionId: string) =>
  JSON.stringify({ session_id: sessionId, model: { id: 'claude-sonnet-4-6' }, cwd: '/w' });

afterEach(closeLoopback);

describe('POST /dense/statusline', () => {
  it("#37.2 answers a known session's line in plain text, and an empty 200 for anything else", async () => {
    const upstream = await stub(reply);
    const proxy = await proxyTo(upstream.url, { workingBudget: 12_000 });
    const headers = { 'anthropic-version': '2023-06-01', 'x-claude-code-session-id': SESSION };
    for (let round = 0; round < 6; round++) {
      const turn = longSessionBody(round + 4, 4_000);
      expect((await send(proxy.url, { path: '/v1/messages', body: turn, headers })).status).toBe(
        200,
      );
    }
    const line = await send(proxy.url, {
      path: '/dense/statusline',
      body: claudeCodeInput(SESSION),
    });
    expect(line.status).toBe(200);
    expect(line.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(line.chunks.join('')).toMatch(/^dense ▸ \d+k upstream \/ \d+k held · saved \d+%\n$/);
    expect(line.chunks.join('')).toBe(statusLineOf(claudeCodeInput(SESSION), proxy.stats.toJSON()));
    for (const body of [claudeCodeInput('another'), 'not json', '', '{"session_id":3}']) {
      const other = await send(proxy.url, { path: '/dense/statusline', body });
      expect({ status: other.status, text: other.chunks.join('') }).toEqual({
        status: 200,
        text: '',
      });
    }
    const huge = await send(proxy.url, { path: '/dense/statusline', body: 'x'.repeat(2 << 20) });
    expect({ status: huge.status, text: huge.chunks.join('') }).toEqual({ status: 200, text: '' });
    // Only the model requests reached the upstream.
    expect(upstream.seen).toHaveLength(6);
  });

  it("#37.2 the session id is read from Claude Code's status line JSON", () => {
    expect(claudeSessionIdOf(claudeCodeInput(SESSION))).toBe(SESSION);
    expect(claudeSessionIdOf('{"session_id": 3}')).toBeUndefined();
    expect(claudeSessionIdOf('null')).toBeUndefined();
    expect(claudeSessionIdOf('{"session_id": ""}')).toBeUndefined();
  });
});
