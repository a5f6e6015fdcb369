/**
 * A loopback HTTP hop that records every request it passes on (method, target, headers, whole
 * body, the status relayed back) into a log it may share with other taps, then forwards it to
 * `target` and streams the reply back unchanged. An optional `before` step runs first and may
 * inject a fault or drop the request (its connection is then closed unanswered). `tag` adds
 * headers to the forwarded request (a sequence number that follows it through the proxy).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface TappedRequest {
  /** Which tap saw it. */
  readonly tap: string;
  /** Position in the shared log, from 1. */
  readonly index: number;
  readonly method: string;
  readonly url: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: Buffer;
  /** The status relayed to the sender; undefined while in flight or when dropped or failed. */
  status?: number;
  /** Milliseconds from the tap's receipt to the reply's end. */
  ms?: number;
  /** Why the target gave no reply (the tap then answers 502 itself). */
  error?: string;
}

export type TapAction = 'forward' | 'drop';

export interface HttpTapOptions {
  readonly name: string;
  readonly target: string;
  /** The log this tap appends to (shared by several taps to keep one order). */
  readonly log: TappedRequest[];
  readonly before?: (request: TappedRequest) => Promise<TapAction> | TapAction;
  readonly tag?: (request: TappedRequest) => Readonly<Record<string, string>>;
}

export interface HttpTap {
  readonly url: string;
  close(): Promise<void>;
}

/** Hop-by-hop and framing headers the tap sets itself. */
const NOT_FORWARDED = new Set(['host', 'connection', 'content-length', 'transfer-encoding']);

function forwardedHeaders(request: TappedRequest, extra: Readonly<Record<string, string>>) {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && !NOT_FORWARDED.has(name)) headers[name] = value;
  }
  return { ...headers, ...extra, 'content-length': String(request.body.length) };
}

function relay(
  options: HttpTapOptions,
  agent: http.Agent,
  entry: TappedRequest,
  response: http.ServerResponse,
): void {
  const started = Date.now();
  const outgoing = http.request(
    new URL(entry.url, options.target),
    {
      method: entry.method,
      agent,
      headers: forwardedHeaders(entry, options.tag?.(entry) ?? {}),
    },
    (reply) => {
      response.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(response);
      reply.on('end', () => {
        entry.status = reply.statusCode;
        entry.ms = Date.now() - started;
      });
    },
  );
  outgoing.on('error', (error) => {
    entry.error = error.message;
    if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
    response.end('tap: the target did not answer');
  });
  outgoing.end(entry.body);
}

export function startHttpTap(options: HttpTapOptions): Promise<HttpTap> {
  const sockets = new Set<Socket>();
  const agent = new http.Agent({ keepAlive: true });
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const entry: TappedRequest = {
        tap: options.name,
        index: options.log.length + 1,
        method: request.method ?? 'GET',
        url: request.url ?? '/',
        headers: request.headers,
        body: Buffer.concat(chunks),
      };
      options.log.push(entry);
      void Promise.resolve(options.before?.(entry) ?? 'forward').then((action) => {
        if (action === 'drop') request.socket.destroy();
        else relay(options, agent, entry, response);
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () =>
          new Promise<void>((done) => {
            agent.destroy();
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}
