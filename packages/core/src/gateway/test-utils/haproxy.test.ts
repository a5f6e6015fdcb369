import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureHaproxy, startHaproxy, type Haproxy } from './haproxy.js';

const missing = ensureHaproxy();
if (missing !== undefined) console.warn(`Skipping the haproxy tests: ${missing}.`);

interface Backend {
  readonly name: string;
  readonly port: number;
  served: number;
  close(): Promise<void>;
}

/** A loopback server answering its own name, counting the requests it served. */
function startBackend(name: string): Promise<Backend> {
  const sockets = new Set<Socket>();
  const backend = { name, port: 0, served: 0 } as Backend;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      backend.served++;
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(name);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      Object.assign(backend, {
        port: (server.address() as AddressInfo).port,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
      resolve(backend);
    });
  });
}

/** POSTs on one kept-alive connection; the answering backend and whether the socket was reused. */
function post(agent: http.Agent, url: string): Promise<{ body: string; reused: boolean }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => {
        if (response.statusCode !== 200) reject(new Error(`status ${response.statusCode}`));
        else
          resolve({ body: Buffer.concat(chunks).toString('utf8'), reused: request.reusedSocket });
      });
    });
    request.once('error', reject);
    request.end('{"n":1}');
  });
}

describe.skipIf(missing !== undefined)('a real haproxy on loopback', () => {
  const backends: Backend[] = [];
  let balancer: Haproxy;

  beforeAll(async () => {
    for (const name of ['r0', 'r1', 'r2']) backends.push(await startBackend(name));
    balancer = await startHaproxy(backends.map(({ name, port }) => ({ name, port })));
  }, 20_000);

  afterAll(async () => {
    await balancer?.stop();
    for (const backend of backends) await backend.close();
  });

  it('#36.6 balances each request of a kept-alive client round-robin, not each connection', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const answers: string[] = [];
    let reused = 0;
    for (let i = 0; i < 30; i++) {
      const answer = await post(agent, balancer.url);
      answers.push(answer.body);
      if (answer.reused) reused++;
    }
    agent.destroy();
    // One client connection carried them all, and the three backends took turns.
    expect(reused).toBe(29);
    expect(backends.map((b) => b.served)).toEqual([10, 10, 10]);
    expect(answers.slice(0, 6)).toEqual(['r0', 'r1', 'r2', 'r0', 'r1', 'r2']);
    const stats = await balancer.stats();
    expect(Object.values(stats).map((s) => s.responses['2xx'])).toEqual([10, 10, 10]);
  });

  it('#36.6 a request whose backend is down is redispatched to another: none fails', async () => {
    await backends[1]?.close();
    const before = backends.map((b) => b.served);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const started = Date.now();
    const answers: string[] = [];
    for (let i = 0; i < 12; i++) answers.push((await post(agent, balancer.url)).body);
    const elapsed = Date.now() - started;
    agent.destroy();
    expect(answers).not.toContain('r1');
    expect(backends.map((b, i) => b.served - (before[i] ?? 0))).toEqual([6, 0, 6]);
    const stats = await balancer.stats();
    expect(stats.r1?.redispatched).toBe(6);
    expect(stats.r1?.responses['2xx']).toBe(10);
    console.log(
      `haproxy: 12 requests with one of 3 backends down in ${elapsed} ms ` +
        `(${stats.r1?.redispatched} redispatched from r1)`,
    );
  });
});
