import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileTokenStore } from '../../gateway/auth/FileTokenStore.js';
import { StatsTimeline } from '../../gateway/dashboard/StatsTimeline.js';
import { closeLoopback, proxyTo, send, stub } from '../test-utils/loopbackProxy.js';
import { bigSessionTurns } from '../test-utils/bigSession.js';
import { pointedId } from '../test-utils/wireRequests.js';

const usage = JSON.stringify({ usage: { input_tokens: 10, output_tokens: 2 } });

describe('the proxy as a gateway for several users', () => {
  let dir: string;
  let tokens: FileTokenStore;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'dense-gateway-'));
    tokens = new FileTokenStore({ file: path.join(dir, 'tokens.json') });
  });
  afterEach(async () => {
    await closeLoopback();
    await rm(dir, { recursive: true, force: true });
  });

  it('#36.4 tokens are optional on loopback, checked when sent, and never reach the upstream', async () => {
    const upstream = await stub((_, res) => res.end(usage));
    const proxy = await proxyTo(upstream.url, { tokens, timeline: new StatsTimeline() });
    const { token } = await tokens.create('ana');
    const body = '{"model":"m","messages":[{"role":"user","content":"hi"}]}';
    expect((await send(proxy.url, { path: '/v1/messages', body })).status).toBe(200);
    const wrong = { 'x-dense-token': 'dense_not-a-token' };
    expect((await send(proxy.url, { path: '/v1/messages', body, headers: wrong })).status).toBe(
      401,
    );
    const ok = await send(proxy.url, { path: `/t/${token}/v1/messages`, body });
    expect(ok.status).toBe(200);
    const withHeader = { 'x-dense-token': token, 'x-api-key': 'sk-provider' };
    expect(
      (await send(proxy.url, { path: '/v1/messages', body, headers: withHeader })).status,
    ).toBe(200);
    expect(upstream.seen).toHaveLength(3);
    for (const seen of upstream.seen) {
      expect(seen.url).toBe('/v1/messages');
      expect(seen.headers['x-dense-token']).toBeUndefined();
      expect(JSON.stringify(seen.headers)).not.toContain(token);
    }
    expect(upstream.seen[2]?.headers['x-api-key']).toBe('sk-provider');
  });

  it('#36.4 on a non-loopback bind a request without a token is refused', async () => {
    const upstream = await stub((_, res) => res.end(usage));
    const proxy = await proxyTo(upstream.url, { tokens, host: '0.0.0.0' });
    const body = '{"model":"m","messages":[]}';
    const url = proxy.url.replace('0.0.0.0', '127.0.0.1');
    const refused = await send(url, { path: '/v1/messages', body });
    expect(refused.status).toBe(401);
    expect(refused.chunks.join('')).toContain('dense token create');
    expect((await send(url, { method: 'GET', path: '/dense/stats' })).status).toBe(401);
    expect(upstream.seen).toHaveLength(0);
  });

  it('#36.4 #36.5 each user sees only their own figures and conversations; an admin sees the team', async () => {
    const upstream = await stub((_, res) => res.end(usage));
    const timeline = new StatsTimeline();
    const proxy = await proxyTo(upstream.url, {
      tokens,
      timeline,
      admins: ['boss'],
      host: '0.0.0.0',
    });
    const url = proxy.url.replace('0.0.0.0', '127.0.0.1');
    const ana = (await tokens.create('ana')).token;
    const bo = (await tokens.create('bo')).token;
    const boss = (await tokens.create('boss')).token;
    // The same session id and the same body: still two conversations, one per user.
    const [first] = bigSessionTurns(4_000, 1);
    const session = { 'x-claude-code-session-id': 'same' };
    for (const token of [ana, bo])
      await send(url, {
        path: '/v1/messages',
        body: first,
        headers: { ...session, 'x-dense-token': token },
      });
    const stats = async (token: string) =>
      JSON.parse(
        (
          await send(url, {
            method: 'GET',
            path: '/dense/stats',
            headers: { 'x-dense-token': token },
          })
        ).chunks.join(''),
      ) as { team: { users: Record<string, unknown> }; conversations?: Record<string, unknown> };
    const anaStats = await stats(ana);
    expect(Object.keys(anaStats.team.users)).toEqual(['ana']);
    // Only ana's own conversation, keyed as without a gateway (the status line reads it so).
    expect(Object.keys(anaStats.conversations ?? {})).toEqual([
      expect.stringMatching(/^session:same:[0-9a-f]{16}$/),
    ]);
    expect(JSON.stringify(anaStats)).not.toContain('"bo"');
    const team = await stats(boss);
    expect(Object.keys(team.team.users).sort()).toEqual(['ana', 'bo']);
    expect(Object.keys(team.conversations ?? {})).toHaveLength(2);
    const page = await send(url, {
      method: 'GET',
      path: '/dense/dashboard',
      headers: { 'x-dense-token': bo },
    });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const html = page.chunks.join('');
    expect(html).toContain('bo');
    expect(html).not.toContain('ana');
  });

  it("#36.3 #36.4 a recall id is answered from the asking user's own archive; to another user it is unknown", async () => {
    const upstream = await stub((_, res) => res.end(usage));
    const proxy = await proxyTo(upstream.url, { tokens, pressureTokens: 1_000 });
    const ana = (await tokens.create('ana')).token;
    const bo = (await tokens.create('bo')).token;
    for (const body of bigSessionTurns(30_000, 3))
      await send(proxy.url, { path: '/v1/messages', body, headers: { 'x-dense-token': ana } });
    const id = pointedId(upstream.seen.at(-1)?.body.toString() ?? '') as string;
    expect(id).toMatch(/^r[0-9a-f]{10}$/);
    const as = (token: string) =>
      send(proxy.url, {
        method: 'GET',
        path: `/dense/recall/${id}`,
        headers: { 'x-dense-token': token },
      });
    const found = await as(ana);
    expect(found.status).toBe(200);
    expect(found.chunks.join('').length).toBeGreaterThan(100);
    const other = await as(bo);
    expect(other.status).toBe(404);
    expect(JSON.parse(other.chunks.join(''))).toMatchObject({ reason: 'unknown' });
    // Without a token: the proxy's own archive, where ana's originals are not.
    expect((await send(proxy.url, { method: 'GET', path: `/dense/recall/${id}` })).status).toBe(
      404,
    );
  });
});
