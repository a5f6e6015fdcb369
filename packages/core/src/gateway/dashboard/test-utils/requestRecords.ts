/**
 * Builders for the dashboard tests: a proxy request record as `ProxyStats.record` returns it
 * (priced), with invented figures, and a clock the tests move by hand.
 */
import type { ProxyRequestRecord } from '../../../proxy/meter/proxyRecord.js';

export interface RecordFigures {
  readonly at: number;
  readonly billed?: number;
  readonly passThrough?: number;
  readonly avoided?: 'answered' | 'kept-under';
  readonly durationMs?: number;
  readonly upstreamTokens?: number;
  readonly clientTokens?: number;
}

export function requestRecord(figures: RecordFigures): ProxyRequestRecord {
  const priced = figures.billed !== undefined || figures.passThrough !== undefined;
  return {
    at: figures.at,
    route: 'anthropic messages',
    status: 200,
    end: 'complete',
    conversationId: 'session:test',
    durationMs: figures.durationMs ?? 1_200,
    usage: { input: 100, cacheCreation: 0, cacheRead: 0, output: 20 },
    removedChars: 0,
    pointers: 0,
    newEdits: 0,
    schedule: 'none',
    prefixStable: true,
    ...(priced
      ? { cost: { billed: figures.billed ?? 0, passThrough: figures.passThrough ?? 0 } }
      : {}),
    ...(figures.upstreamTokens === undefined
      ? {}
      : {
          context: {
            upstreamTokens: figures.upstreamTokens,
            clientTokens: figures.clientTokens ?? figures.upstreamTokens,
          },
        }),
    ...(figures.avoided === undefined ? {} : { compactionAvoided: figures.avoided }),
  };
}

/** A clock that only moves when told. */
export function manualClock(start: number): { now: () => number; set: (at: number) => void } {
  let at = start;
  return {
    now: () => at,
    set: (next) => {
      at = next;
    },
  };
}
