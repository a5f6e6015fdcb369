import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import * as zlib from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProxyRequestRecord } from '../meter/proxyRecord.js';
import {
  closeLoopback,
  proxyTo,
  send,
  stub,
  type LoopbackProxy,
} from '../test-utils/loopbackProxy.js';
import { anthropicBody, claudeSession } from '../test-utils/wireRequests.js';

afterEach(closeLoopback);

interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A POST whose reply is kept as raw bytes (Node's client never decompresses). */
function post(url: string, path: string, body: string): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const req = httpRequest({ hostname, port, path, method: 'POST' }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The `n`th request record, once the proxy has stored it (metering may finish after the reply). */
async function recorded(proxy: LoopbackProxy, n: number): Promise<ProxyRequestRecord> {
  for (;;) {
    const record = proxy.stats.toJSON().recent[n - 1];
    if (record !== undefined) return record;
    await new Promise((done) => setTimeout(done, 5));
  }
}

const SSE = [
  'event: message_start\r\ndata: {"type":"message_start","message":{"usage":{"input_tokens":6,"cache_creation_input_tokens":50,"cache_read_input_tokens":700,"output_tokens":1}}}\r\n\r\n',
  ...Array.from(
    { length: 40 },
    (_, i) => `event: content_block_delta\r\ndata: {"delta":{"text":"${i}"}}\r\n\r\n`,
  ),
  'event: message_delta\r\ndata: {"type":"message_delta","usage":{"output_tokens":33}}\r\n\r\n',
  'event: message_stop\r\ndata: {"type":"message_stop"}\r\n\r\n',
].join('');
const SSE_USAGE = { input: 6, cacheCreation: 50, cacheRead: 700, output: 33 };
const JSON_REPLY = JSON.stringify({
  type: 'message',
  content: [{ type: 'text', text: 'done' }],
  usage: { input_tokens: 4, cache_read_input_tokens: 120, output_tokens: 8 },
});
const JSON_USAGE = { input: 4, cacheCreation: 0, cacheRead: 120, output: 8 };

const ENCODERS = {
  gzip: (text: string) => zlib.gzipSync(text),
  br: (text: string) => zlib.brotliCompressSync(text),
  deflate: (text: string) => zlib.deflateSync(text),
} as const;

/** An upstream answering each request with the next of `replies`, written in 50-byte pieces. */
async function upstreamOf(replies: { type: string; encoding?: string; bytes: Buffer }[]) {
  return stub((_, res) => {
    const reply = replies.shift();
    if (reply === undefined) throw new Error('no reply left');
    res.writeHead(200, {
      'content-type': reply.type,
      ...(reply.encoding === undefined ? {} : { 'content-encoding': reply.encoding }),
    });
    for (let at = 0; at < reply.bytes.length; at += 50)
      res.write(reply.bytes.subarray(at, at + 50));
    res.end();
  });
}

describe('forwardRequest metering', () => {
  it('#34.4 a CRLF-framed SSE reply is metered through the proxy', async () => {
    const upstream = await upstreamOf([{ type: 'text/event-stream', bytes: Buffer.from(SSE) }]);
    const proxy = await proxyTo(upstream.url);
    const reply = await post(proxy.url, '/v1/messages', anthropicBody(claudeSession(1)));
    expect(reply.body.toString()).toBe(SSE);
    expect((await recorded(proxy, 1)).usage).toEqual(SSE_USAGE);
  });

  for (const [coding, encode] of Object.entries(ENCODERS)) {
    it(`#34.4 ${coding} replies (SSE and JSON) are metered and reach the client byte-identical`, async () => {
      const sse = encode(SSE);
      const json = encode(JSON_REPLY);
      const upstream = await upstreamOf([
        { type: 'application/json', encoding: coding, bytes: json },
        { type: 'text/event-stream', encoding: coding, bytes: sse },
      ]);
      const proxy = await proxyTo(upstream.url);
      const body = anthropicBody(claudeSession(1));
      const whole = await post(
        proxy.url,
        '/v1/messages',
        anthropicBody(claudeSession(1), { stream: false }),
      );
      expect(whole.headers['content-encoding']).toBe(coding);
      expect(whole.body.equals(json)).toBe(true);
      expect((await recorded(proxy, 1)).usage).toEqual(JSON_USAGE);
      const streamed = await post(proxy.url, '/v1/messages', body);
      expect(streamed.body.equals(sse)).toBe(true);
      expect((await recorded(proxy, 2)).usage).toEqual(SSE_USAGE);
    });
  }

  it('#34.4 count_tokens probes leave the conversation count unchanged', async () => {
    const upstream = await stub((seen, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(seen.url.includes('count_tokens') ? '{"input_tokens":5}' : JSON_REPLY);
    });
    const proxy = await proxyTo(upstream.url, { maxStatsConversations: 2 });
    const headers = { 'x-claude-code-session-id': 'probes' };
    await send(proxy.url, { path: '/v1/messages', body: anthropicBody(claudeSession(1)), headers });
    await send(proxy.url, { path: '/v1/messages', body: anthropicBody(claudeSession(2)) });
    const before = proxy.stats.toJSON();
    expect(Object.keys(before.conversations)).toHaveLength(2);
    // Claude Code probes with small bodies of their own (each a different "first message").
    for (let i = 0; i < 5; i++) {
      const probe = anthropicBody([{ role: 'user', content: `probe ${i}` }], { stream: false });
      await send(proxy.url, { path: '/v1/messages/count_tokens', body: probe, headers });
    }
    await recorded(proxy, 7);
    const after = proxy.stats.toJSON();
    expect(Object.keys(after.conversations)).toEqual(Object.keys(before.conversations));
    expect(after.conversations).toEqual(before.conversations);
    expect(after.dropped.conversations).toBe(0);
    expect(after.totals.requests).toBe(7);
    expect(after.recent.at(-1)?.route).toBe('anthropic count_tokens');
  });
});
