/**
 * Loopback harness for the proxy server's tests: a scripted upstream that records what reaches
 * it, a proxy in front of it whose log lines are kept (its recall archive in a temp directory),
 * and a raw HTTP client. `closeLoopback()`
 * (call it in `afterEach`) closes everything opened.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { RecallArchive } from '../../recall/RecallArchive.js';
import type { OriginalsArchive } from '../http/proxyContext.js';
import {
  startProxyServer,
  type ProxyServer,
  type ProxyServerOptions,
} from '../http/proxyServer.js';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: Buffer;
}

export type Handler = (seen: Seen, res: ServerResponse) => void;

/**
 * An upstream handler that answers like the Messages API, its prompt tokens the body's characters
 * over `charsPerToken` (so the proxy's calibration has something to follow).
 */
export function messagesReply(charsPerToken: number): Handler {
  return (seen, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        id: 'msg',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: 'ok' }],
        usage: { input_tokens: Math.round(seen.body.length / charsPerToken), output_tokens: 5 },
      }),
    );
  };
}

const cleanups: (() => Promise<void>)[] = [];

export async function closeLoopback(): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

/** An upstream on 127.0.0.1 that answers with `handler` once it has a request's whole body. */
export async function stub(handler: Handler): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks),
      };
      seen.push(entry);
      handler(entry, res);
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(
    () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

export type LoopbackProxy = ProxyServer & {
  readonly lines: string[];
  readonly recall: OriginalsArchive;
};

/** A proxy whose both upstreams are `upstream`; its log lines are in `lines`. */
export async function proxyTo(
  upstream: string,
  extra: ProxyServerOptions = {},
): Promise<LoopbackProxy> {
  const lines: string[] = [];
  const dir = await mkdtemp(path.join(tmpdir(), 'dense-proxy-recall-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  const recall = extra.recall ?? new RecallArchive({ dir });
  const proxy = await startProxyServer({
    anthropicUpstream: upstream,
    openaiUpstream: upstream,
    log: (line) => lines.push(line),
    recall,
    ...extra,
  });
  cleanups.push(() => proxy.close());
  return Object.assign(proxy, { lines, recall });
}

export interface Reply {
  status: number;
  headers: IncomingMessage['headers'];
  chunks: string[];
  error?: string;
}

export function send(
  url: string,
  options: { method?: string; path: string; body?: string; headers?: Record<string, string> },
): Promise<Reply> {
  return new Promise((resolve) => {
    // The path goes out as written (dot segments included): a URL string would be normalized.
    const { hostname, port } = new URL(url);
    const req = httpRequest({
      hostname: hostname.replace(/^\[|\]$/g, ''),
      port,
      path: options.path,
      method: options.method ?? 'POST',
      headers: { 'content-type': 'application/json', ...options.headers },
    });
    req.on('response', (res) => {
      const reply: Reply = { status: res.statusCode ?? 0, headers: res.headers, chunks: [] };
      res.on('data', (chunk: Buffer) => reply.chunks.push(chunk.toString()));
      res.on('end', () => resolve(reply));
      res.on('error', (error) => resolve({ ...reply, error: error.message }));
      res.on('aborted', () => resolve({ ...reply, error: 'aborted' }));
    });
    req.on('error', (error) =>
      resolve({ status: 0, headers: {}, chunks: [], error: error.message }),
    );
    req.end(options.body);
  });
}
