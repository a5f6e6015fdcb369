/**
 * Proxy overhead per request on Claude Code-shaped conversations of ~100k and ~1M tokens: the
 * density step alone, and a full round trip through the proxy vs straight to the upstream stub
 * (plain forwarding). Run: npx vitest bench --run packages/core/src/proxy/proxyServer.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, bench, describe } from 'vitest';
import { ConversationStore } from './conversationStore.js';
import { densifyRequest } from './densifyRequest.js';
import { startProxyServer } from './proxyServer.js';
import { RecallArchive } from '../recall/RecallArchive.js';
import { bigSessionBody } from './test-utils/bigSession.js';

const SIZES = [100_000, 1_000_000] as const;
const bodies = new Map(SIZES.map((tokens) => [tokens, Buffer.from(bigSessionBody(tokens))]));
const body = (tokens: (typeof SIZES)[number]) => bodies.get(tokens) as Buffer;

const upstream = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.end('{"usage":{"input_tokens":1,"output_tokens":1}}'));
});
await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
const recallDir = mkdtempSync(path.join(tmpdir(), 'dense-bench-recall-'));
const proxy = await startProxyServer({
  anthropicUpstream: upstreamUrl,
  maxBodyBytes: 64 << 20,
  recall: new RecallArchive({ dir: recallDir }),
});

afterAll(async () => {
  await proxy.close();
  upstream.close();
  rmSync(recallDir, { recursive: true, force: true });
});

async function post(base: string, payload: Buffer): Promise<void> {
  const reply = await fetch(`${base}/v1/messages`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-claude-code-session-id': 'bench' },
    body: payload,
  });
  await reply.arrayBuffer();
}

for (const tokens of SIZES) {
  describe(`~${tokens / 1000}k-token conversation`, () => {
    const store = new ConversationStore();
    bench('density step (sticky steady state)', () => {
      densifyRequest({
        api: 'anthropic',
        body: body(tokens),
        sessionId: 'bench',
        store,
        now: Date.now(),
        pressureTokens: 150_000,
      });
    });
    bench('round trip, plain forwarding (straight to upstream)', async () => {
      await post(upstreamUrl, body(tokens));
    });
    bench('round trip through dense proxy', async () => {
      await post(proxy.url, body(tokens));
    });
  });
}
