import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { runStatusline } from './statuslineBin.js';

const SESSION = '5d0f6a52-7777-4888-9999-aaaabbbbcccc';
const servers: Server[] = [];

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((done) => server.close(done));
  }
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A loopback address nothing listens on. */
async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return `http://127.0.0.1:${port}`;
}

async function run(stdinText: string, env: NodeJS.ProcessEnv, timeoutMs?: number) {
  const stdout = new PassThrough();
  let out = '';
  stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const started = performance.now();
  const code = await runStatusline([], {
    stdin: Readable.from([stdinText]),
    stdout,
    env,
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
  return { code, out, ms: performance.now() - started };
}

const input = JSON.stringify({ session_id: SESSION, model: { id: 'claude-sonnet-4-6' } });

describe('dense statusline: silent unless a proxy knows the session', () => {
  it('#37.2 no proxy listening: nothing on stdout, exit 0', async () => {
    const result = await run(input, { DENSE_PROXY_URL: await closedUrl() });
    expect(result).toMatchObject({ code: 0, out: '' });
  });

  it('#37.2 a proxy that does not answer in time: nothing, within the deadline', async () => {
    const url = await listen(() => undefined);
    const result = await run(input, { DENSE_PROXY_URL: url }, 100);
    expect(result).toMatchObject({ code: 0, out: '' });
    expect(result.ms).toBeLessThan(1_000);
  });

  it('#37.2 empty stdin sends nothing; a proxy without the route (404) prints nothing', async () => {
    const paths: string[] = [];
    const proxy = await listen((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(404).end('{"error":"not found"}');
    });
    expect((await run('', { DENSE_PROXY_URL: proxy })).out).toBe('');
    expect(paths).toEqual([]);
    expect((await run(input, { DENSE_PROXY_URL: proxy })).out).toBe('');
    expect(paths).toEqual(['/dense/statusline']);
  });

  it("#37.2 stdin goes to the proxy's POST /dense/statusline as is, and its line is printed", async () => {
    const seen: string[] = [];
    const proxy = await listen((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        seen.push(`${req.method ?? ''} ${req.url ?? ''} ${Buffer.concat(chunks).toString()}`);
        res.end('dense ▸ 41k upstream / 156k held · saved 38% · 2 compactions avoided\n');
      });
    });
    const result = await run(input, { ANTHROPIC_BASE_URL: proxy });
    expect(result.out).toBe(
      'dense ▸ 41k upstream / 156k held · saved 38% · 2 compactions avoided\n',
    );
    expect(seen).toEqual([`POST /dense/statusline ${input}`]);
  });
});
