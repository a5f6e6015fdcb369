import { describe, expect, it } from 'vitest';
import { ConversationStore } from './conversationStore.js';
import { proxyRiskBudget, recordProxyRequest, type ProxyRequestRecord } from './proxyLedger.js';

const MIN = 60_000;
const NO_BATCH = { removedTokens: 0, invalidatedTokens: 0 } as const;

function conversation(id: string) {
  return new ConversationStore({ now: () => 0 }).get(id, 0);
}

function call(at: number, keptOutTokens: number, stickyRemovedTokens = 0): ProxyRequestRecord {
  return { at, stickyRemovedTokens, keptOutTokens, batch: NO_BATCH, promptTokens: 20_000 };
}

/**
 * What a conversation whose replies keep `kept[i]` tokens out of call i saved more than one whose
 * replies keep `baseline[i]` out (risk budgets without the allowance), calls a minute apart.
 */
function savedOver(kept: readonly number[], baseline: readonly number[]): number {
  const [one, other] = [conversation('kept'), conversation('baseline')];
  kept.forEach((tokens, i) => recordProxyRequest(one, call(i * MIN, tokens)));
  baseline.forEach((tokens, i) => recordProxyRequest(other, call(i * MIN, tokens)));
  return proxyRiskBudget(one, 'anthropic', 0) - proxyRiskBudget(other, 'anthropic', 0);
}

describe('proxy ledger', () => {
  it('#24.1 what the replies at entry keep out is saved, as the CLI prices it: each call from the one it entered with reads it no more', () => {
    // One reply keeps 4,000 tokens out of the second call and of the two after it (priced as
    // reads, though pass-through would have written them on the first: the estimate errs low).
    expect(savedOver([0, 4_000, 4_000, 4_000], [0, 0, 0, 0])).toBeCloseTo(3 * 4_000 * 0.1, 6);
  });

  it('#24.1 a reply undone (its result back in the request) stops counting; one that stays counts once', () => {
    // 4,000 kept out on two calls then 1,000 on two, against 1,000 on all four.
    const saved = savedOver([4_000, 4_000, 1_000, 1_000], [1_000, 1_000, 1_000, 1_000]);
    expect(saved).toBeCloseTo(2 * 3_000 * 0.1, 6);
  });

  it('#24.1 after the client rewound (fewer pointers), the replies still in the request count again from there', () => {
    const state = conversation('rewound');
    recordProxyRequest(state, call(0, 2_000, 5_000));
    const before = proxyRiskBudget(state, 'anthropic', 0);
    recordProxyRequest(state, call(MIN, 2_000, 1_000));
    recordProxyRequest(state, call(2 * MIN, 2_000, 1_000));
    // The earlier removals are forgotten (as after a compression); the 2,000 tokens the replies
    // still keep out count on each of the two calls.
    expect(proxyRiskBudget(state, 'anthropic', 0) - before).toBeCloseTo(2 * 2_000 * 0.1, 6);
  });
});
