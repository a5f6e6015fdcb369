/**
 * Sends one request to the configured upstream and pipes the reply back as it arrives: status,
 * headers and body verbatim (errors, `retry-after` and all), chunk by chunk. A copy of each chunk
 * goes to the usage meter (decompressed on the side when the reply is compressed). An upstream that
 * drops the connection mid-reply drops the client's connection too, and the outcome says the reply
 * was cut. Targets never leave the configured upstream's base path.
 */
import * as http from 'node:http';
import * as https from 'node:https';
import type { Readable } from 'node:stream';
import { withoutDenseCredentials } from '../../gateway/auth/withoutDenseCredentials.js';
import { ReportedUsageStream, raisedUsageJson, type PromptFloor } from '../meter/reportedUsage.js';
import { bodyLength } from '../wire/bodyLength.js';
import type { ForwardOutcome, ReplyEnd } from '../meter/forwardOutcome.js';
import { UsageTap } from '../meter/usageTap.js';

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
  /** Where the request goes (see `upstreamTarget`). */
  readonly target: URL;
  readonly clientRequest: http.IncomingMessage;
  readonly clientResponse: http.ServerResponse;
  /**
   * The (possibly edited) body, whole or as chunks sent one after the other (not joined);
   * undefined pipes the client's body through unread.
   */
  readonly body: Buffer | readonly Buffer[] | undefined;
  /**
   * Raises the prompt a successful reply reports to the client (`reportedUsage.ts`); the meter
   * still reads the upstream's usage. Absent: the reply passes byte for byte.
   */
  readonly promptFloor?: PromptFloor;
  /**
   * Runs once the upstream's reply is complete, before its last bytes reach the client (a shared
   * store gets the request's state before the client can send its next request).
   */
  readonly beforeEnd?: (outcome: ForwardOutcome) => Promise<void>;
}

/** `%2f`, `%5c` or `%2e`, in any case. */
const ENCODED_PATH_PART = /%(2f|5c|2e)/i;

/**
 * The upstream URL for a client's request target: the upstream's base path followed by the
 * request's path and query. Undefined when the path, once its dot segments (`..`, `%2e%2e`, and
 * backslashes, which URLs read as slashes) are resolved, leaves the base path.
 */
export function upstreamTarget(upstream: URL, requestUrl: string): URL | undefined {
  const base = upstream.pathname.replace(/\/+$/, '');
  const target = new URL(upstream.toString());
  const query = requestUrl.indexOf('?');
  const requestPath = query === -1 ? requestUrl : requestUrl.slice(0, query);
  // An encoded separator or dot would reach the upstream raw and could climb out once decoded
  // there: refused like a decoded `..` (no API path needs one).
  if (ENCODED_PATH_PART.test(requestPath)) return undefined;
  target.pathname = base + (requestPath.startsWith('/') ? '' : '/') + requestPath;
  target.search = query === -1 ? '' : requestUrl.slice(query);
  const inside = target.pathname === base || target.pathname.startsWith(`${base}/`);
  return inside ? target : undefined;
}

/** Writes the body and ends the request: chunks go out in one batch, uncopied. */
function sendBody(request: http.ClientRequest, body: Buffer | readonly Buffer[]): void {
  if (Buffer.isBuffer(body)) {
    request.end(body);
    return;
  }
  request.cork();
  for (const chunk of body) if (chunk.length > 0) request.write(chunk);
  request.end();
}

function requestHeaders(input: ForwardInput): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  // The Dense token is the gateway's, never the provider's.
  for (const [name, value] of Object.entries(
    withoutDenseCredentials(input.clientRequest.headers),
  )) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  if (input.body !== undefined) headers['content-length'] = String(bodyLength(input.body));
  return headers;
}

function responseHeaders(reply: http.IncomingMessage): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(reply.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  return headers;
}

/** How the reply's bytes reach the client: as they come, or with the reported usage raised. */
interface ReplyWriter {
  write(chunk: Buffer): void;
  /** Settles the reply's last bytes (and whether usage was raised); the call sends them. */
  close(): () => void;
  readonly raised: () => boolean;
}

function replyWriter(
  input: ForwardInput,
  reply: http.IncomingMessage,
  status: number,
): ReplyWriter {
  const { clientResponse } = input;
  const headers = responseHeaders(reply);
  const floor = input.promptFloor;
  // Compressed or failed replies, and replies with nothing to raise, go out as they came.
  if (floor === undefined || status !== 200 || reply.headers['content-encoding'] !== undefined) {
    clientResponse.writeHead(status, reply.statusMessage, headers);
    clientResponse.flushHeaders();
    return {
      write: (chunk) => clientResponse.write(chunk),
      close: () => () => clientResponse.end(),
      raised: () => false,
    };
  }
  if (String(reply.headers['content-type'] ?? '').includes('text/event-stream')) {
    const stream = new ReportedUsageStream(floor);
    clientResponse.writeHead(status, reply.statusMessage, headers);
    clientResponse.flushHeaders();
    return {
      write: (chunk) => {
        const out = stream.push(chunk);
        if (out.length > 0) clientResponse.write(out);
      },
      close: () => {
        const tail = stream.end();
        return () => clientResponse.end(tail);
      },
      raised: () => stream.raised,
    };
  }
  // A JSON reply is held whole (its length changes when raised).
  const chunks: Buffer[] = [];
  let raised = false;
  return {
    write: (chunk) => chunks.push(chunk),
    close: () => {
      let body = Buffer.concat(chunks);
      const text = raisedUsageJson(body.toString('utf8'), floor);
      if (text !== undefined) {
        body = Buffer.from(text, 'utf8');
        raised = true;
      }
      return () => {
        clientResponse.writeHead(status, reply.statusMessage, {
          ...headers,
          'content-length': String(body.length),
        });
        clientResponse.end(body);
      };
    },
    raised: () => raised,
  };
}

function pipeReply(
  input: ForwardInput,
  reply: http.IncomingMessage,
  resolve: (outcome: ForwardOutcome) => void,
  clientGone: () => boolean,
): void {
  const { clientResponse } = input;
  const status = reply.statusCode ?? 502;
  const tap = new UsageTap({
    contentType: reply.headers['content-type'],
    contentEncoding: reply.headers['content-encoding'],
  });
  const writer = replyWriter(input, reply, status);
  reply.on('data', (chunk: Buffer) => {
    writer.write(chunk);
    tap.push(chunk);
  });
  reply.on('end', () => {
    const send = writer.close();
    const usageRaised = writer.raised();
    const beforeEnd = input.beforeEnd;
    if (beforeEnd === undefined) send();
    void tap.finish().then(async (usage) => {
      const outcome: ForwardOutcome = {
        ...{ status, usage, end: 'complete' },
        ...(usageRaised ? { usageRaised } : {}),
      };
      if (beforeEnd !== undefined) {
        await beforeEnd(outcome).catch(() => undefined);
        send();
      }
      setImmediate(() => resolve(outcome));
    });
  });
  const drop = () => {
    if (!reply.complete) {
      const end: ReplyEnd = clientGone() ? 'client-closed' : 'upstream-cut';
      clientResponse.destroy();
      resolve({ status, usage: tap.cut(), end });
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
    const target = input.target;
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(target, {
      method: input.clientRequest.method,
      headers: requestHeaders(input),
    });
    let clientGone = false;
    request.on('response', (reply) => pipeReply(input, reply, resolve, () => clientGone));
    request.on('error', (error) => {
      gatewayError(input.clientResponse, `dense proxy: upstream unreachable (${error.message})`);
      resolve({ status: 502, usage: undefined, end: 'complete' });
    });
    input.clientResponse.on('close', () => {
      if (input.clientResponse.writableFinished) return;
      clientGone = true;
      request.destroy();
    });
    if (input.body === undefined) (input.clientRequest as Readable).pipe(request);
    else sendBody(request, input.body);
  });
}
