/**
 * Sends one request to the configured upstream and pipes the reply back as it arrives: status,
 * headers and body verbatim (errors, `retry-after` and all), chunk by chunk. A copy of each chunk
 * goes to the usage meter (decompressed on the side when the reply is compressed). An upstream that
 * drops the connection mid-reply drops the client's connection too.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { UsageMeter, type Usage } from './usageMeter.js';

/** Headers that describe one hop, not the message (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
]);

export interface ForwardInput {
  readonly upstream: URL;
  readonly clientRequest: http.IncomingMessage;
  readonly clientResponse: http.ServerResponse;
  /** The (possibly edited) body; undefined pipes the client's body through unread. */
  readonly body: Buffer | undefined;
}

export interface ForwardOutcome {
  readonly status: number;
  readonly usage: Usage | undefined;
}

export function upstreamUrl(upstream: URL, requestUrl: string): URL {
  const base = upstream.pathname.replace(/\/+$/, '');
  const target = new URL(upstream.toString());
  const query = requestUrl.indexOf('?');
  target.pathname = base + (query === -1 ? requestUrl : requestUrl.slice(0, query));
  target.search = query === -1 ? '' : requestUrl.slice(query);
  return target;
}

function requestHeaders(input: ForwardInput): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(input.clientRequest.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  if (input.body !== undefined) headers['content-length'] = String(input.body.length);
  return headers;
}

function responseHeaders(reply: http.IncomingMessage): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  return headers;
}

/** Decompresses a copy of the reply for the meter; the client gets the bytes as they came. */
function meterTap(reply: http.IncomingMessage, meter: UsageMeter): (chunk: Buffer) => void {
  const encoding = String(reply.headers['content-encoding'] ?? '').toLowerCase();
  const inflate: zlib.Gunzip | zlib.BrotliDecompress | zlib.Inflate | undefined =
    encoding === 'gzip'
      ? zlib.createGunzip()
      : encoding === 'br'
        ? zlib.createBrotliDecompress()
        : encoding === 'deflate'
          ? zlib.createInflate()
          : undefined;
  if (inflate === undefined) return (chunk) => meter.push(chunk);
  inflate.on('data', (chunk: Buffer) => meter.push(chunk));
  inflate.on('error', () => undefined);
  reply.on('end', () => inflate.end());
  return (chunk) => inflate.write(chunk);
}

function pipeReply(
  input: ForwardInput,
  reply: http.IncomingMessage,
  resolve: (outcome: ForwardOutcome) => void,
): void {
  const { clientResponse } = input;
  const status = reply.statusCode ?? 502;
  const type = String(reply.headers['content-type'] ?? '');
  const meter = new UsageMeter(type.includes('text/event-stream'));
  const tap = meterTap(reply, meter);
  clientResponse.writeHead(status, reply.statusMessage, responseHeaders(reply));
  clientResponse.flushHeaders();
  reply.on('data', (chunk: Buffer) => {
    clientResponse.write(chunk);
    tap(chunk);
  });
  reply.on('end', () => {
    clientResponse.end();
    setImmediate(() => resolve({ status, usage: meter.finish() }));
  });
  const drop = () => {
    if (!reply.complete) {
      clientResponse.destroy();
      resolve({ status, usage: meter.finish() });
    }
  };
  reply.on('aborted', drop);
  reply.on('error', drop);
  reply.on('close', drop);
}

function gatewayError(response: http.ServerResponse, message: string): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  const body = JSON.stringify({ type: 'error', error: { type: 'api_error', message } });
  response.writeHead(502, { 'content-type': 'application/json' });
  response.end(body);
}

/** Resolves when the reply has been passed on (or the connection dropped). Never rejects. */
export function forwardRequest(input: ForwardInput): Promise<ForwardOutcome> {
  return new Promise((resolve) => {
    const target = upstreamUrl(input.upstream, input.clientRequest.url ?? '/');
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(target, {
      method: input.clientRequest.method,
      headers: requestHeaders(input),
    });
    request.on('response', (reply) => pipeReply(input, reply, resolve));
    request.on('error', (error) => {
      gatewayError(input.clientResponse, `dense proxy: upstream unreachable (${error.message})`);
      resolve({ status: 502, usage: undefined });
    });
    input.clientResponse.on('close', () => {
      if (!input.clientResponse.writableFinished) request.destroy();
    });
    if (input.body === undefined) (input.clientRequest as Readable).pipe(request);
    else request.end(input.body);
  });
}
