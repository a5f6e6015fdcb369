import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { withinRisk } from './earlyCompactionRisk.js';
import {
  COMPACT_TO_SHARE,
  estimateWithCut,
  fitsBudget,
  oneReplyPast,
  planCompaction,
  repliesPast,
  type CompactionPlanInput,
} from './planCompaction.js';

const BUDGET = 20_000;

/**
 * A conversation compacted at turn 4 (the summary stands for turns 0–3): the turn it kept whole
 * (a tool call and its `resultChars` result), then `replies` more replies of 400 characters each.
 */
function afterCompaction(resultChars: number, replies: number): CompactionPlanInput {
  const roles = ['user', 'assistant', 'user', 'assistant', 'assistant', 'user'];
  const messageChars = [4_000, 400, 4_000, 400, 400, resultChars];
  for (let i = 0; i < replies; i++) roles.push('assistant', 'user');
  for (let i = 0; i < replies; i++) messageChars.push(400, 400);
  return {
    roles,
    messageChars,
    fixedChars: 2_000,
    tokensPerChar: 0.25,
    budgetTokens: BUDGET,
    earlyBudgetTokens: BUDGET * 0.85,
    previousCut: 4,
    summaryChars: 8_000,
  };
}

describe('planCompaction: finishing a compaction the newest turn held short', () => {
  it('#35.2 one reply past a cut that kept a large result, the cut moves past it though the request fits', () => {
    // 40,000 characters of result: the request (12,900 tokens) fits the budget, over its target.
    const input = afterCompaction(40_000, 1);
    expect(estimateWithCut(input, 4)).toBeLessThan(BUDGET);
    expect(estimateWithCut(input, 4)).toBeGreaterThan(BUDGET * COMPACT_TO_SHARE);
    const plan = planCompaction(input);
    expect(plan).toMatchObject({ kind: 'compact', cut: 6 });
    if (plan.kind === 'compact') expect(plan.sentTokens).toBe(estimateWithCut(input, 4));
  });

  it('#35.2 not before the model answered it, not two replies later, not for a small kept turn', () => {
    expect(planCompaction(afterCompaction(40_000, 0))).toMatchObject({ kind: 'keep' });
    expect(planCompaction(afterCompaction(40_000, 2))).toMatchObject({ kind: 'keep' });
    // 8,000 characters (2,000 tokens): less than half the target (6,000 tokens) would go.
    expect(planCompaction(afterCompaction(8_000, 1))).toMatchObject({ kind: 'keep' });
    // Nothing standing: no compaction to finish.
    expect(planCompaction({ ...afterCompaction(40_000, 1), previousCut: 0 })).toMatchObject({
      kind: 'keep',
    });
  });

  it('#35.2 oneReplyPast: the model turn at the cut and exactly one reply after it', () => {
    expect(oneReplyPast(['assistant', 'user', 'assistant', 'user'], 0)).toBe(true);
    expect(oneReplyPast(['assistant', 'user', 'user', 'assistant'], 0)).toBe(true);
    expect(oneReplyPast(['assistant', 'user'], 0)).toBe(false);
    expect(oneReplyPast(['assistant', 'user', 'assistant', 'assistant'], 0)).toBe(false);
    expect(oneReplyPast(['user', 'assistant', 'user', 'assistant'], 0)).toBe(false);
    expect(oneReplyPast(['user', 'assistant', 'user', 'assistant'], 1)).toBe(true);
    // Counted up to two, reading no further than the second reply.
    const read: number[] = [];
    const roles = ['assistant', 'user', 'assistant', 'assistant', 'assistant'];
    const roleAt = (index: number) => {
      read.push(index);
      return roles[index];
    };
    expect(repliesPast(roleAt, 0)).toBe(2);
    expect(Math.max(...read)).toBe(3);
    expect(repliesPast((index) => roles[index], 1)).toBeUndefined();
  });

  test.prop([
    fc.array(fc.integer({ min: 1, max: 20_000 }), { minLength: 6, maxLength: 40 }),
    fc.integer({ min: 1, max: 39 }),
  ])(
    '#35.2 property: a request that fits at the standing cut is compacted only one reply past it, at the newest reply',
    (chars, standing) => {
      const roles = chars.map((_, i) => (i % 2 === 0 ? 'user' : 'assistant'));
      const previousCut = Math.min(standing, chars.length - 1);
      if (roles[previousCut] !== 'assistant') return;
      const input: CompactionPlanInput = {
        roles,
        messageChars: chars,
        fixedChars: 1_000,
        tokensPerChar: 0.25,
        budgetTokens: 20_000,
        previousCut,
        summaryChars: 800,
      };
      const plan = planCompaction(input);
      if (plan.kind === 'keep' || !fitsBudget(input, previousCut)) return;
      expect(oneReplyPast(roles, previousCut)).toBe(true);
      expect(plan.cut).toBe(roles.lastIndexOf('assistant'));
    },
  );

  it('#35.2 finishing is made only when it repays its up-front cost within a quarter of the calls the cycle is expected to have left', () => {
    const risk = { riskTokens: () => 1_000_000, readMultiplier: 0.1, writeMultiplier: 1.25 };
    // Few, large turns: ~3,100 tokens a reply, so the history is back at the early budget within
    // ~5 calls, too soon to repay the summary's rewrite.
    const short = afterCompaction(40_000, 1);
    expect(planCompaction(short)).toMatchObject({ kind: 'compact', finishing: true });
    expect(withinRisk(risk, short, planCompaction(short))).toMatchObject({
      kind: 'keep',
      reason: 'over-risk',
    });
    // The same, after 60 small exchanges: ~330 tokens a reply, ~43 calls left.
    const small = Array.from({ length: 120 }, (_, i) => (i % 2 === 0 ? 'user' : 'assistant'));
    const long: CompactionPlanInput = {
      ...short,
      roles: [...small, ...short.roles],
      messageChars: [...small.map(() => 100), ...short.messageChars],
      previousCut: short.previousCut + small.length,
    };
    expect(withinRisk(risk, long, planCompaction(long))).toMatchObject({
      kind: 'compact',
      cut: long.roles.length - 2,
    });
  });
});
