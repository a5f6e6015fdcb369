import { afterEach, describe, expect, it } from 'vitest';
import { closeLoopback, proxyTo, send, stub } from '../test-utils/loopbackProxy.js';
import { densifyRequest } from '../densify/densifyRequest.js';
import { VIEW_BYTES } from '../splice/spliceEdits.js';
import { anthropicBody, claudeSession, densifyOptions } from '../test-utils/wireRequests.js';

afterEach(closeLoopback);

describe('dense proxy server', () => {
  it('#15.1 forwards other routes with method, path, query, headers and body unchanged', async () => {
    const upstream = await stub((_, res) => res.end('ok'));
    const proxy = await proxyTo(upstream.url);
    const body = '{"b": 1,  "a": [2]}';
    const reply = await send(proxy.url, {
      path: '/v1/models/x?beta=true&q=%20a',
      body,
      headers: { 'x-api-key': 'secret', 'anthropic-version': '2023-06-01', 'x-custom': 'y' },
    });
    expect(reply.chunks.join('')).toBe('ok');
    const seen = upstream.seen[0];
    expect(seen?.url).toBe('/v1/models/x?beta=true&q=%20a');
    expect(seen?.body.toString()).toBe(body);
    expect(seen?.headers).toMatchObject({ 'x-api-key': 'secret', 'x-custom': 'y' });
  });

  it('#15.6 a chat request with nothing to prune reaches the upstream byte-identical', async () => {
    const upstream = await stub((_, res) => res.end('{}'));
    const proxy = await proxyTo(upstream.url);
    const body = JSON.stringify(JSON.parse(anthropicBody(claudeSession(1))), null, 3);
    await send(proxy.url, { path: '/v1/messages?beta=true', body });
    expect(upstream.seen[0]?.body.toString()).toBe(body);
    expect(upstream.seen[0]?.url).toBe('/v1/messages?beta=true');
  });

  it('#15.6 streaming chunks reach the client unmodified and in order', async () => {
    const parts = Array.from({ length: 20 }, (_, i) => `event: e\ndata: {"i":${i}}\n\n`);
    const upstream = await stub((_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const next = () => {
        if (i === parts.length) {
          res.end();
          return;
        }
        res.write(parts[i++]);
        setTimeout(next, 2);
      };
      next();
    });
    const proxy = await proxyTo(upstream.url);
    const reply = await send(proxy.url, {
      path: '/v1/messages',
      body: anthropicBody(claudeSession(0)),
    });
    expect(reply.chunks.join('')).toBe(parts.join(''));
    expect(reply.chunks.length).toBeGreaterThan(1);
  });

  it('#15.4 upstream 429 and 500 reach the client as they came (status, retry-after, body)', async () => {
    const bodies = ['{"type":"error","error":{"type":"rate_limit_error"}}', 'boom'];
    const upstream = await stub((seen, res) => {
      const first = upstream.seen.length === 1;
      res.writeHead(first ? 429 : 500, first ? { 'retry-after': '17' } : {});
      res.end(first ? bodies[0] : bodies[1]);
      void seen;
    });
    const proxy = await proxyTo(upstream.url);
    const body = anthropicBody(claudeSession(0));
    const limited = await send(proxy.url, { path: '/v1/messages', body });
    const failed = await send(proxy.url, { path: '/v1/chat/completions', body: '{"messages":[]}' });
    expect(limited).toMatchObject({ status: 429, chunks: [bodies[0]] });
    expect(limited.headers['retry-after']).toBe('17');
    expect(failed).toMatchObject({ status: 500, chunks: [bodies[1]] });
  });

  it('#15.4 an upstream that drops the connection mid-stream drops the client too', async () => {
    const upstream = await stub((_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: message_start\ndata: {}\n\n');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const proxy = await proxyTo(upstream.url);
    const reply = await send(proxy.url, { path: '/v1/messages', body: anthropicBody([]) });
    expect(reply.chunks.join('')).toBe('event: message_start\ndata: {}\n\n');
    expect(reply.error).toBeDefined();
  });

  it('#15.6 a body over the limit gets a clear 413 and never reaches the upstream', async () => {
    const upstream = await stub((_, res) => res.end('{}'));
    const proxy = await proxyTo(upstream.url, { maxBodyBytes: 1000 });
    const reply = await send(proxy.url, { path: '/v1/messages', body: 'x'.repeat(5000) });
    expect(reply.status).toBe(413);
    expect(reply.chunks.join('')).toMatch(/request body exceeds 1000 bytes/);
    expect(upstream.seen).toHaveLength(0);
    const other = await send(proxy.url, { path: '/v1/files', body: 'y'.repeat(5000) });
    expect(other.status).toBe(413);
    expect(upstream.seen).toHaveLength(0);
  });

  it('#15.5 meters SSE usage and serves it at GET /dense/stats', async () => {
    const upstream = await stub((_, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('event: message_start\ndata: {"type":"message_start","message":{"usage":');
      res.write(
        '{"input_tokens":7,"cache_creation_input_tokens":20,"cache_read_input_tokens":300,"output_tokens":1}}}\n\n',
      );
      res.end(
        'event: message_delta\ndata: {"type":"message_delta","usage":{"output_tokens":42}}\n\n',
      );
    });
    const proxy = await proxyTo(upstream.url);
    await send(proxy.url, { path: '/v1/messages', body: anthropicBody(claudeSession(2)) });
    const stats = await send(proxy.url, { method: 'GET', path: '/dense/stats' });
    const json = JSON.parse(stats.chunks.join('')) as {
      totals: { cacheReadTokens: number; outputTokens: number; removedTokens: number };
    };
    expect(json.totals).toMatchObject({ cacheReadTokens: 300, outputTokens: 42 });
    expect(json.totals.removedTokens).toBeGreaterThan(100);
    expect(JSON.stringify(json)).not.toContain('secret');
  });

  it('#15.6 an absolute-URL request still only goes to the configured upstream (no open relay)', async () => {
    const upstream = await stub((_, res) => res.end('mine'));
    const proxy = await proxyTo(upstream.url);
    const reply = await send(proxy.url, { method: 'GET', path: '/http://example.invalid/x' });
    expect(reply.chunks.join('')).toBe('mine');
    expect(upstream.seen).toHaveLength(1);
  });

  it('#15.4 an unreachable upstream is a 502 with a clear message', async () => {
    const proxy = await proxyTo('http://127.0.0.1:1');
    const reply = await send(proxy.url, { path: '/v1/messages', body: anthropicBody([]) });
    expect(reply.status).toBe(502);
    expect(reply.chunks.join('')).toMatch(/upstream unreachable/);
  });

  it('#15.1 count_tokens gets the sticky pointers, so the count matches what is sent', async () => {
    const upstream = await stub((_, res) => res.end('{"input_tokens":5}'));
    const proxy = await proxyTo(upstream.url);
    const body = anthropicBody(claudeSession(2));
    const headers = { 'x-claude-code-session-id': 'count' };
    await send(proxy.url, { path: '/v1/messages/count_tokens', body, headers });
    await send(proxy.url, { path: '/v1/messages', body, headers });
    await send(proxy.url, { path: '/v1/messages/count_tokens', body, headers });
    const [before, sent, after] = upstream.seen.map((seen) => seen.body.toString());
    expect(before).toBe(body);
    expect(sent).not.toBe(body);
    expect(after).toBe(sent);
    const routes = proxy.stats.toJSON().recent.map((entry) => entry.route);
    expect(routes).toEqual(['anthropic count_tokens', 'anthropic', 'anthropic count_tokens']);
  });

  it('#24.4 a request with pointers goes upstream as the spliced bytes, sent as uncopied chunks', async () => {
    const upstream = await stub((_, res) => res.end('{}'));
    const proxy = await proxyTo(upstream.url);
    // Multi-byte text before and after the pointed result: byte offsets differ from characters.
    const messages = claudeSession(3, { readContent: 'é€😀 stale read\n'.repeat(20) });
    // A long system prompt: an unchanged stretch sent as a view of the client's bytes.
    const system = 'ü'.repeat(VIEW_BYTES);
    const body = anthropicBody([...messages, { role: 'user', content: 'weiter → ✓' }], { system });
    const headers = { 'x-claude-code-session-id': 'S1' };
    await send(proxy.url, { path: '/v1/messages', body, headers });
    const options = densifyOptions(body);
    const expected = densifyRequest(options);
    expect(expected.pointers).toBeGreaterThan(0);
    expect(expected.chunks?.length).toBeGreaterThan(1);
    expect(expected.chunks?.some((chunk) => chunk.buffer === options.body.buffer)).toBe(true);
    expect(upstream.seen[0]?.body.equals(expected.body)).toBe(true);
    expect(upstream.seen[0]?.headers['content-length']).toBe(String(expected.body.length));
  });
});
