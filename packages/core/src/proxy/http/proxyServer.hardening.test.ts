import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isAllowedHost } from './isAllowedHost.js';
import type { ProxyStatsJson } from '../meter/proxyStats.js';
import { closeLoopback, proxyTo, send, stub } from '../test-utils/loopbackProxy.js';
import { anthropicBody, claudeSession } from '../test-utils/wireRequests.js';

const dirs: string[] = [];
afterEach(async () => {
  await closeLoopback();
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dense-proxy-record-'));
  dirs.push(dir);
  return dir;
}

async function recorded(dir: string): Promise<Record<string, string>> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.json')).sort();
  const out: Record<string, string> = {};
  for (const name of names) out[name] = await readFile(path.join(dir, name), 'utf8');
  return out;
}

describe('dense proxy --record', () => {
  it('#22.7 a proxy restarted on the same directory keeps the earlier run’s files', async () => {
    const upstream = await stub((_, res) => res.end('{}'));
    const dir = await tempDir();
    const first = await proxyTo(upstream.url, { recordDir: dir });
    await send(first.url, { path: '/v1/messages', body: anthropicBody(claudeSession(0)) });
    await send(first.url, { path: '/v1/messages', body: anthropicBody(claudeSession(1)) });
    await first.close();
    const before = await recorded(dir);
    expect(Object.keys(before)).toHaveLength(2);

    const second = await proxyTo(upstream.url, { recordDir: dir });
    await send(second.url, { path: '/v1/messages', body: anthropicBody(claudeSession(2)) });
    const after = await recorded(dir);
    expect(Object.keys(after)).toHaveLength(3);
    for (const [name, text] of Object.entries(before)) expect(after[name]).toBe(text);
  });

  it('#22.10 credential headers and query values never reach the recording', async () => {
    const upstream = await stub((_, res) => res.end('{}'));
    const dir = await tempDir();
    const proxy = await proxyTo(upstream.url, { recordDir: dir });
    const secrets = [
      'azure-k1',
      'proxy-k2',
      'query-k3',
      'bearer-k4',
      'token-k5',
      'sk-abcdefghijk6',
    ];
    await send(proxy.url, {
      path: `/openai/deployments/d/chat/completions?api-version=2024-10-21&key=${secrets[2]}&access_token=${secrets[4]}`,
      body: '{"messages":[]}',
      headers: {
        'api-key': secrets[0] ?? '',
        'proxy-authorization': `Basic ${secrets[1]}`,
        authorization: `Bearer ${secrets[3]}`,
        'x-custom-header': secrets[5] ?? '',
      },
    });
    const files = Object.values(await recorded(dir));
    expect(files).toHaveLength(1);
    for (const secret of secrets) expect(files[0]).not.toContain(secret);
    const entry = JSON.parse(files[0] ?? '{}') as { url: string; headers: Record<string, string> };
    expect(entry.url).toContain('api-version=2024-10-21');
    expect(entry.url).toContain('key=[redacted]');
    expect(entry.headers['api-key']).toBe('[redacted]');
    expect(upstream.seen[0]?.headers['api-key']).toBe(secrets[0]);
  });
});

describe('dense proxy path and Host safety', () => {
  it.each([
    '/v1/../../admin',
    '/%2e%2e/admin',
    '/v1/%2E%2E/%2e%2e/admin',
    '/v1\\..\\..\\admin',
    '/v1/messages/../../../x/v1/messages',
  ])('#22.11 %s cannot leave the upstream base path', async (requestPath) => {
    const upstream = await stub((_, res) => res.end('{}'));
    const proxy = await proxyTo(`${upstream.url}/tenant/api`);
    const reply = await send(proxy.url, { path: requestPath, body: '{}' });
    expect(reply.status).toBe(400);
    expect(upstream.seen).toHaveLength(0);
  });

  it('#22.11 paths under the base path still go through', async () => {
    const upstream = await stub((_, res) => res.end('{}'));
    const proxy = await proxyTo(`${upstream.url}/tenant/api`);
    const reply = await send(proxy.url, { method: 'GET', path: '/v1/models?x=1' });
    expect(reply.status).toBe(200);
    expect(upstream.seen[0]?.url).toBe('/tenant/api/v1/models?x=1');
  });

  it('#22.11 /dense/stats and the API answer only loopback Host names', async () => {
    const upstream = await stub((_, res) => res.end('{}'));
    const proxy = await proxyTo(upstream.url);
    const evil = { host: `rebound.example:${proxy.port}` };
    const stats = await send(proxy.url, { method: 'GET', path: '/dense/stats', headers: evil });
    expect(stats.status).toBe(403);
    expect(stats.chunks.join('')).not.toContain('conversations');
    const chat = await send(proxy.url, { path: '/v1/messages', body: '{}', headers: evil });
    expect(chat.status).toBe(403);
    expect(upstream.seen).toHaveLength(0);
    for (const host of [
      `localhost:${proxy.port}`,
      `127.0.0.1:${proxy.port}`,
      `[::1]:${proxy.port}`,
    ]) {
      const ok = await send(proxy.url, { method: 'GET', path: '/dense/stats', headers: { host } });
      expect(ok.status).toBe(200);
    }
  });

  it('#22.11 --host widens the accepted Host names to that address (every name for 0.0.0.0)', () => {
    expect(isAllowedHost('10.0.0.5:8787', '127.0.0.1')).toBe(false);
    expect(isAllowedHost('10.0.0.5:8787', '10.0.0.5')).toBe(true);
    expect(isAllowedHost('evil.example', '10.0.0.5')).toBe(false);
    expect(isAllowedHost('box.lan:8787', '0.0.0.0')).toBe(true);
    expect(isAllowedHost('[fd00::1]:8787', 'fd00::1')).toBe(true);
    expect(isAllowedHost('localhost', '::1')).toBe(true);
  });
});

describe('dense proxy bounds', () => {
  it('#22.12 request bodies in flight are bounded: past the bound a 503 with retry-after', async () => {
    let held: ServerResponse | undefined;
    let arrived: () => void = () => undefined;
    const firstArrived = new Promise<void>((resolve) => (arrived = resolve));
    const upstream = await stub((_, res) => {
      if (upstream.seen.length > 1) {
        res.end('{}');
        return;
      }
      held = res;
      arrived();
    });
    const proxy = await proxyTo(upstream.url, { maxBodyBytes: 1000, maxBytesInFlight: 1000 });
    const content = 'x'.repeat(700);
    const body = JSON.stringify({ model: 'm', messages: [{ role: 'user', content }] });
    const first = send(proxy.url, { path: '/v1/messages', body });
    await firstArrived;
    const busy = await send(proxy.url, { path: '/v1/messages', body });
    expect(busy.status).toBe(503);
    expect(busy.headers['retry-after']).toBe('2');
    expect(busy.chunks.join('')).toMatch(/busy/);
    expect(upstream.seen).toHaveLength(1);
    held?.end('{}');
    expect((await first).status).toBe(200);
    expect((await send(proxy.url, { path: '/v1/messages', body })).status).toBe(200);
  });
});

describe('dense proxy metering', () => {
  it('#22.20 a stream cut mid-reply is recorded and logged as cut, not as an ordinary 200', async () => {
    const upstream = await stub((_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: message_start\ndata: {}\n\n', () => res.socket?.destroy());
    });
    const proxy = await proxyTo(upstream.url);
    const reply = await send(proxy.url, { path: '/v1/messages', body: anthropicBody([]) });
    expect(reply.error).toBeDefined();
    const [entry] = proxy.stats.toJSON().recent;
    expect(entry?.end).toBe('upstream-cut');
    expect(proxy.lines.at(-1)).toMatch(/^dense proxy 200 cut mid-reply \(upstream/);
    expect(proxy.stats.toJSON().totals.cutReplies).toBe(1);
  });

  it('#22.20 each conversation reports billed cost against the estimated pass-through cost', async () => {
    const usage = {
      input_tokens: 3,
      cache_creation_input_tokens: 2000,
      cache_read_input_tokens: 0,
      output_tokens: 5,
    };
    const upstream = await stub((_, res) => res.end(JSON.stringify({ usage })));
    const proxy = await proxyTo(upstream.url);
    const headers = { 'x-claude-code-session-id': 's1' };
    const body = anthropicBody(claudeSession(2));
    await send(proxy.url, { path: '/v1/messages', body, headers });
    const stats: ProxyStatsJson = proxy.stats.toJSON();
    const [id, totals] = Object.entries(stats.conversations)[0] ?? [];
    expect(id).toMatch(/^session:s1:/);
    expect(totals?.billedCost).toBeCloseTo(3 + 1.25 * 2000);
    expect(stats.recent[0]?.removedChars).toBeGreaterThan(0);
    expect(totals?.passThroughCost).toBeGreaterThan(totals?.billedCost ?? Infinity);
    expect(stats.recent[0]?.cost).toEqual({
      billed: totals?.billedCost,
      passThrough: totals?.passThroughCost,
    });
  });
});
