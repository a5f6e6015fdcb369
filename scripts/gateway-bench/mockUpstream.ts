/**
 * The gateway bench's upstream: a loopback server that answers every request at once with a
 * Messages API reply whose usage is the body's characters / 4, and notes when each request's body
 * had fully arrived (`performance.now()`, the clock the bench's client uses too), by the request's
 * `x-bench-id` header. It also counts requests that still carry a Dense token (there must be none).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

export const BENCH_ID_HEADER = 'x-bench-id';

export interface MockUpstream {
  readonly url: string;
  /** When the body of the request with this id had arrived; removed once read. */
  takeArrival(id: string): number | undefined;
  /** Requests that reached the upstream with an `x-dense-token` header. */
  readonly leakedTokens: () => number;
  close(): Promise<void>;
}

export async function startMockUpstream(): Promise<MockUpstream> {
  const arrivals = new Map<string, number>();
  let leaked = 0;
  const server: Server = createServer((request, response) => {
    let bytes = 0;
    if (request.headers['x-dense-token'] !== undefined) leaked++;
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    request.on('end', () => {
      const id = request.headers[BENCH_ID_HEADER];
      if (typeof id === 'string') arrivals.set(id, performance.now());
      const reply = JSON.stringify({
        id: 'msg_bench',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-6',
        content: [{ type: 'text', text: 'Done.' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: Math.round(bytes / 4), output_tokens: 40 },
      });
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(reply)),
      });
      response.end(reply);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    takeArrival: (id) => {
      const at = arrivals.get(id);
      arrivals.delete(id);
      return at;
    },
    leakedTokens: () => leaked,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
