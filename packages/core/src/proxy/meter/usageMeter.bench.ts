/**
 * Metering cost of a long SSE reply: 12,000 Anthropic events, one chunk each, framed by LF, CRLF
 * and CR line ends, through the usage meter alone; then the CRLF stream end to end through a
 * loopback proxy (the upstream writes each event on its own tick) with a small request sent
 * alongside it, and the same stream straight from the upstream for comparison.
 * Run: npx vitest bench --run packages/core/src/proxy/meter/usageMeter.bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, bench, describe } from 'vitest';
import { RecallArchive } from '../../recall/RecallArchive.js';
import { startProxyServer } from '../http/proxyServer.js';
import { UsageMeter } from './usageMeter.js';

const EVENTS = 12_000;

function events(eol: string): Buffer[] {
  const event = (name: string, data: string) =>
    Buffer.from(`event: ${name}${eol}data: ${data}${eol}${eol}`);
  const start = '{"type":"message_start","message":{"usage":{"input_tokens":9,"output_tokens":1}}}';
  const delta =
    '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok "}}';
  return [
    event('message_start', start),
    ...Array.from({ length: EVENTS }, () => event('content_block_delta', delta)),
    event('message_delta', '{"type":"message_delta","usage":{"output_tokens":12000}}'),
  ];
}

const FRAMINGS = { lf: '\n', crlf: '\r\n', cr: '\r' } as const;

describe('usage meter, 12,000 events one chunk each', () => {
  for (const [name, eol] of Object.entries(FRAMINGS)) {
    const chunks = events(eol);
    bench(name, () => {
      const meter = new UsageMeter(true);
      for (const chunk of chunks) meter.push(chunk);
      if (meter.finish()?.output !== 12_000) throw new Error('not metered');
    });
  }
});

/** A POST whose reply is read to its end; resolves with the milliseconds it took. */
function roundTrip(url: string, path: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const { hostname, port } = new URL(url);
    const req = httpRequest({ hostname, port, path, method: 'POST' }, (res) => {
      res.resume();
      res.on('end', () => resolve(performance.now() - started));
    });
    req.on('error', reject);
    req.end('{}');
  });
}

const dir = mkdtempSync(path.join(tmpdir(), 'dense-meter-bench-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('12,000 CRLF events through the proxy', async () => {
  const chunks = events('\r\n');
  const upstream = createServer((req, res) => {
    if (req.url === '/v1/models') {
      res.end('{}');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    let next = 0;
    const write = () => {
      if (next === chunks.length) {
        res.end();
        return;
      }
      res.write(chunks[next++]);
      setImmediate(write);
    };
    write();
  });
  await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
  const target = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  const proxy = await startProxyServer({
    anthropicUpstream: target,
    openaiUpstream: target,
    recall: new RecallArchive({ dir }),
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise<void>((done) => upstream.close(() => done()));
  });
  bench(
    'stream, with a small request sent alongside',
    async () => {
      const stream = roundTrip(proxy.url, '/v1/messages/x');
      await new Promise((done) => setTimeout(done, 50));
      await roundTrip(proxy.url, '/v1/models');
      await stream;
    },
    { iterations: 5, time: 0 },
  );
  bench(
    'stream straight from the upstream (no proxy)',
    async () => {
      await roundTrip(target, '/v1/messages/x');
    },
    { iterations: 5, time: 0 },
  );
});
