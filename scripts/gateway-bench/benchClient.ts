/**
 * The gateway bench's client: sends one Messages request to a side and times it on the clock the
 * mock upstream notes arrivals with (`performance.now()`, one process): the round trip the client
 * sees, and the time until the upstream had the whole body (for a proxy: reading, deciding,
 * loading the shared state and forwarding).
 */
import { request as httpRequest } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { BenchSide } from './benchSides.js';
import { BENCH_ID_HEADER, type MockUpstream } from './mockUpstream.js';

export interface Sample {
  readonly side: BenchSide['name'];
  readonly bytes: number;
  /** When it was sent (ms, `performance.now()`). */
  readonly sentAt: number;
  /** Client-observed: from sending the request to the reply's last byte. */
  readonly roundTripMs: number;
  /** From sending the request to the upstream having its whole body; undefined when it never got there. */
  readonly toUpstreamMs: number | undefined;
  /** HTTP status, or 0 when the request failed without one. */
  readonly status: number;
}

let sequence = 0;

export interface Send {
  readonly side: BenchSide;
  readonly upstream: MockUpstream;
  /** The conversation's session id (a sticky side routes by it). */
  readonly sessionId: string;
  readonly body: Buffer;
  readonly headers: Record<string, string>;
}

export function send({ side, upstream, sessionId, body, headers }: Send): Promise<Sample> {
  const id = `r${++sequence}`;
  const base = side.target(sessionId);
  return new Promise((resolve) => {
    const sentAt = performance.now();
    const done = (status: number) => {
      const arrived = upstream.takeArrival(id);
      resolve({
        side: side.name,
        bytes: body.length,
        sentAt,
        roundTripMs: performance.now() - sentAt,
        toUpstreamMs: arrived === undefined ? undefined : arrived - sentAt,
        status,
      });
    };
    const request = httpRequest(
      `${base}/v1/messages`,
      {
        method: 'POST',
        agent: side.agent,
        headers: { ...headers, 'content-length': String(body.length), [BENCH_ID_HEADER]: id },
      },
      (response) => {
        response.resume();
        response.on('end', () => done(response.statusCode ?? 0));
        response.on('error', () => done(0));
      },
    );
    request.on('error', () => done(0));
    request.end(body);
  });
}
