/**
 * The skeleton every scripted loopback upstream shares: a server on 127.0.0.1 that collects each
 * request's body and hands method, path and raw body to the script, and whose `close` also ends
 * kept-alive client connections. `startRecordingUpstream` is the whole upstream for a script that
 * answers one route with an event stream and keeps every raw body it was sent.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Json = Record<string, unknown>;

export interface LoopbackRequest {
  readonly method: string;
  readonly url: string;
  readonly raw: string;
}

export interface LoopbackServer {
  readonly url: string;
  close(): Promise<void>;
}

/** Starts a loopback server that calls `handle` with each request once its body is complete. */
export function startLoopbackUpstream(
  handle: (request: LoopbackRequest, response: ServerResponse) => void,
): Promise<LoopbackServer> {
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      handle({ method: request.method ?? '', url: request.url ?? '', raw }, response);
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
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      });
    });
  });
}

/** The request body as a JSON object; `{}` when it is not JSON (answered like a side request). */
export function parseBody(raw: string): Json {
  try {
    return JSON.parse(raw) as Json;
  } catch {
    return {};
  }
}

export function sendJson(response: ServerResponse, status: number, value: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(value));
}

export interface RecordingUpstream extends LoopbackServer {
  /** Raw bodies of the requests to the scripted route, in order. */
  readonly bodies: readonly string[];
}

/**
 * An upstream that answers requests whose path ends in `route` with `stream(body, turn)` as an
 * event stream (`turn` counts those requests from 1) and every other path with 404 `{}`.
 */
export async function startRecordingUpstream(script: {
  readonly route: string;
  readonly stream: (body: Json, turn: number) => string;
}): Promise<RecordingUpstream> {
  const bodies: string[] = [];
  const server = await startLoopbackUpstream(({ url, raw }, response) => {
    if (!url.endsWith(script.route)) {
      response.writeHead(404);
      response.end('{}');
      return;
    }
    bodies.push(raw);
    const text = script.stream(JSON.parse(raw) as Json, bodies.length);
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.end(text);
  });
  return { ...server, bodies };
}
