/** The proxy's HTTP plumbing: reading a chat body against the limits, and JSON error replies. */
import type * as http from 'node:http';
import type { BodyBudget } from './bodyBudget.js';

export class BodyTooLarge extends Error {}
export class ProxyBusy extends Error {}

/** Told the body's first `bytes` (or the whole body when it is shorter) once they are in. */
export interface BodyStart {
  readonly bytes: number;
  seen(first: Buffer): void;
}

/**
 * Reads the whole body, taking its bytes from `budget` as they arrive; the caller gives them back.
 * `start` is told the body's beginning as soon as it has arrived.
 */
export function readBody(
  request: http.IncomingMessage,
  limit: number,
  budget: BodyBudget,
  taken: { bytes: number },
  start?: BodyStart,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let failed = false;
    let started = start === undefined;
    const tell = () => {
      if (started || start === undefined) return;
      started = true;
      start.seen(Buffer.concat(chunks, Math.min(start.bytes, taken.bytes)));
    };
    request.on('data', (chunk: Buffer) => {
      if (failed) return;
      const error =
        taken.bytes + chunk.length > limit
          ? new BodyTooLarge()
          : !budget.tryTake(chunk.length)
            ? new ProxyBusy()
            : undefined;
      if (error !== undefined) {
        failed = true;
        reject(error);
        request.resume();
        return;
      }
      taken.bytes += chunk.length;
      chunks.push(chunk);
      if (start !== undefined && taken.bytes >= start.bytes) tell();
    });
    request.on('end', () => {
      if (failed) return;
      tell();
      resolve(Buffer.concat(chunks));
    });
    request.on('error', reject);
  });
}

export function errorBody(type: string, message: string): unknown {
  return { type: 'error', error: { type, message: `dense proxy: ${message}` } };
}

export function sendJson(
  response: http.ServerResponse,
  status: number,
  body: unknown,
  headers: http.OutgoingHttpHeaders = {},
): void {
  response.writeHead(status, { 'content-type': 'application/json', ...headers });
  response.end(JSON.stringify(body));
}
