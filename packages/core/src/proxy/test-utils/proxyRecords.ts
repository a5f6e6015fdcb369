/** Builders for `ProxyStats` tests: one finished request record with neutral defaults. */
import type { ProxyRequestRecord } from '../meter/proxyRecord.js';

/** A complete 200 Anthropic request of conversation `c` that changed nothing; `extra` overrides. */
export function proxyRequest(extra: Partial<ProxyRequestRecord> = {}): ProxyRequestRecord {
  return {
    at: 0,
    route: 'anthropic',
    status: 200,
    end: 'complete',
    conversationId: 'c',
    durationMs: 1,
    usage: { input: 1, cacheCreation: 0, cacheRead: 0, output: 1 },
    removedChars: 0,
    pointers: 0,
    newEdits: 0,
    schedule: 'none',
    prefixStable: undefined,
    ...extra,
  };
}
