/**
 * The proxy and the CLI run one scheduler: for the same history (same entries, same token sizes)
 * and the same timing, the batch the proxy sends (priced on the wire by `wireCuts`) is the batch
 * the CLI's density step applies (priced on the history by `sentTokensFrom`), for the same reason.
 */
import { describe, expect, it } from 'vitest';
import { ai, human } from '../../test-utils/historyBuilders.js';
import { CACHE_RULES } from '../../cache/cacheRules.js';
import { HistoryService } from '../../services/history/HistoryService.js';
import type { TokenCounter } from '../../services/history/TokenCounter.js';
import { decideDensityApplication, type BatchCut } from '../../scheduler/densitySchedule.js';
import { sentTokensFrom } from '../../scheduler/densityInvalidation.js';
import { scheduleEdits } from './proxySchedule.js';
import { wireCache } from './wireCache.js';
import type { ResultSite } from '../wire/wireHistory.js';

const tokensAsChars: TokenCounter = { countText: (text) => text.length };
const rules = CACHE_RULES.anthropic;

/** Entries alternate human / ai; sizes in tokens; the newest entry is a human one. */
async function cliHistory(sizes: readonly number[]): Promise<HistoryService> {
  const history = new HistoryService({ tokenCounter: tokensAsChars });
  history.addAll(sizes.map((n, i) => (i % 2 === 0 ? human('h'.repeat(n)) : ai('a'.repeat(n)))));
  await history.waitForTokenUpdates();
  return history;
}

interface Case {
  readonly sizes: readonly number[];
  /** Edited entries (human ones) and the tokens each edit removes. */
  readonly edits: readonly (readonly [index: number, removed: number])[];
  readonly gapMs: number | undefined;
  readonly riskBudget: number;
}

async function cliDecision(c: Case) {
  const history = await cliHistory(c.sizes);
  const n = c.sizes.length;
  const lastSend = c.gapMs === undefined ? undefined : { entries: n - 2, at: 0, anchors: [] };
  const sent = sentTokensFrom(history, lastSend, rules);
  const cuts: BatchCut[] = c.edits.map(([index], k) => ({
    index,
    removedTokens: c.edits.slice(k).reduce((sum, [, removed]) => sum + removed, 0),
    invalidatedTokens: sent.invalidated(index),
  }));
  const decision = decideDensityApplication({
    rules,
    cuts,
    msSinceLastSend: c.gapMs,
    paybackHorizon: 15,
    underPressure: false,
    riskBudget: c.riskBudget,
  });
  return { applyFrom: decision.applyFrom, reason: decision.reason };
}

function proxyDecision(c: Case) {
  // The same entries on the wire: 4 characters a token, breakpoints where Claude Code puts them
  // (the newest message; nothing outside the messages here, as the CLI history has none).
  const n = c.sizes.length;
  const cache = wireCache({
    leadChars: 0,
    messages: c.sizes.map((size, i) => ({ chars: 4 * size, blocks: 1, assistant: i % 2 === 1 })),
    breakpointMessages: [n - 1],
    leadBreakpoint: false,
  });
  const candidates: ResultSite[] = c.edits.map(([index, removed]) => ({
    callId: `c${index}`,
    messageIndex: index,
    blockIndex: 0,
    start: 0,
    end: 4 * removed,
  }));
  const decision = scheduleEdits({
    candidates,
    messageCount: n,
    totalChars: 4 * c.sizes.reduce((a, b) => a + b, 0),
    cache,
    gapMs: c.gapMs,
    hasPrevious: c.gapMs !== undefined,
    rules,
    pressureTokens: Number.POSITIVE_INFINITY,
    paybackCalls: 15,
    riskBudget: c.riskBudget,
  });
  const applyFrom =
    decision.apply.length === 0
      ? undefined
      : Math.min(...decision.apply.map((site) => site.messageIndex));
  return { applyFrom, reason: decision.reason };
}

const long = [8_000, 50, 3_000, 50, 4_000, 50, 6_000, 50, 2_000, 50, 500];

const cases: Record<string, Case> = {
  'a small deep edit in a warm cache waits': {
    sizes: long,
    edits: [[2, 300]],
    gapMs: 10_000,
    riskBudget: 100,
  },
  'the same edit goes when the cache is cold': {
    sizes: long,
    edits: [[2, 300]],
    gapMs: 6 * 60_000,
    riskBudget: 100,
  },
  'the first request applies everything': {
    sizes: long,
    edits: [[2, 300]],
    gapMs: undefined,
    riskBudget: 0,
  },
  'a large deep edit pays back within the budget': {
    sizes: long,
    edits: [[6, 5_000]],
    gapMs: 10_000,
    riskBudget: 50_000,
  },
  'the same large edit waits when the budget is spent': {
    sizes: long,
    edits: [[6, 5_000]],
    gapMs: 10_000,
    riskBudget: 0,
  },
  'a deep edit waits while the edit in the newest message goes alone': {
    sizes: long,
    edits: [
      [2, 300],
      [10, 400],
    ],
    gapMs: 10_000,
    riskBudget: 100,
  },
};

describe('#23.3 the proxy and the CLI schedule the same batch for the same history and timing', () => {
  for (const [name, c] of Object.entries(cases)) {
    it(`#23.3 ${name}`, async () => {
      const cli = await cliDecision(c);
      expect(proxyDecision(c)).toEqual(cli);
    });
  }
  it('#23.3 the cases cover waiting, applying everything and applying a tail', async () => {
    const reasons = await Promise.all(Object.values(cases).map(cliDecision));
    expect(new Set(reasons.map((d) => d.reason))).toEqual(
      new Set(['deferred', 'cache-cold', 'no-cache-yet', 'pays-back', 'tail-pays-back']),
    );
  });
});
