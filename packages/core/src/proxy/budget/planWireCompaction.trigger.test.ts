import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { bigSessionTurns } from '../test-utils/bigSession.js';
import { densityCompactInput } from '../test-utils/densityCompactInput.js';
import { compactWire } from './compactWire.js';
import {
  compactionBooking,
  withinRisk,
} from '../../core/compression/workingBudget/earlyCompactionRisk.js';
import {
  EARLY_COMPACTION_SHARE,
  estimateWithCut,
  fitsBudget,
  planCompaction as planWireCompaction,
  type CompactionPlanInput,
} from '../../core/compression/workingBudget/planCompaction.js';

const roles = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => (i % 2 === 0 ? 'user' : 'assistant'));

/**
 * `count` alternating messages of `sent` characters each (`client` as the client sent them), at
 * 4 characters a token, no standing cut.
 */
function uniform(
  count: number,
  chars: { readonly sent: number; readonly client: number },
  rest: Pick<CompactionPlanInput, 'fixedChars' | 'budgetTokens' | 'summaryChars'> &
    Partial<CompactionPlanInput>,
): CompactionPlanInput {
  return {
    roles: roles(count),
    messageChars: Array.from({ length: count }, () => chars.sent),
    clientMessageChars: Array.from({ length: count }, () => chars.client),
    tokensPerChar: 0.25,
    previousCut: 0,
    ...rest,
  };
}

describe('planWireCompaction: the trigger', () => {
  it('#24.1 compacts once the client history passes the budget, though density keeps the sent request under it', () => {
    // Density halved every message: the sent request (10,000 tokens) is under the budget.
    const input = uniform(
      20,
      { sent: 2_000, client: 4_000 },
      { fixedChars: 0, budgetTokens: 15_000, summaryChars: 800 },
    );
    expect(estimateWithCut(input, 0)).toBeLessThanOrEqual(input.budgetTokens);
    const plan = planWireCompaction(input);
    expect(plan.kind).toBe('compact');
    // The cut is chosen on the sent sizes.
    if (plan.kind === 'compact')
      expect(plan.estimatedTokens).toBe(estimateWithCut(input, plan.cut));
    const sentOnly = { ...input, clientMessageChars: undefined };
    expect(planWireCompaction(sentOnly)).toMatchObject({ kind: 'keep', reason: 'under-budget' });
  });

  it('#24.1 compacts once the client history passes the early budget, though it and the sent request fit the budget', () => {
    // 18,000 tokens as the client sent it: under the budget, past 85% of it.
    const input = uniform(
      20,
      { sent: 2_000, client: 3_600 },
      { fixedChars: 0, budgetTokens: 20_000, summaryChars: 800 },
    );
    expect(planWireCompaction(input)).toMatchObject({ kind: 'keep', reason: 'under-budget' });
    const early = { ...input, earlyBudgetTokens: 17_000 };
    expect(planWireCompaction(early).kind).toBe('compact');
    // The sent request is never held to the early budget.
    const sentOnly = { ...early, clientMessageChars: undefined };
    expect(planWireCompaction(sentOnly)).toMatchObject({ kind: 'keep', reason: 'under-budget' });
  });

  it('#24.1 an early compaction that cannot bring the client history under the early budget is not made (else every request would make it again)', () => {
    // The fixed part (14,000 tokens) and the summary (2,800) leave no room under 17,000 for the
    // newest turn (400): no cut serves the early budget.
    const input = uniform(
      10,
      { sent: 1_600, client: 1_600 },
      { fixedChars: 56_000, budgetTokens: 20_000, earlyBudgetTokens: 17_000, summaryChars: 11_200 },
    );
    expect(estimateWithCut(input, 0)).toBe(18_000);
    expect(planWireCompaction(input)).toMatchObject({ kind: 'keep', reason: 'nothing-to-cut' });
    // Once the request as sent needs it, it is made.
    const over = { ...input, messageChars: Array.from({ length: 10 }, () => 2_600) };
    expect(planWireCompaction(over).kind).toBe('compact');
  });

  it('#24.1 an early compaction that would make the sent request larger is not made', () => {
    // Density keeps the sent request at 1,000 tokens; the summary alone would take 10,000.
    const input = uniform(
      10,
      { sent: 400, client: 8_000 },
      { fixedChars: 0, budgetTokens: 20_000, earlyBudgetTokens: 17_000, summaryChars: 40_000 },
    );
    expect(planWireCompaction(input)).toMatchObject({ kind: 'keep', reason: 'nothing-to-cut' });
  });

  it('#24.1 finishing a compaction is declined where the client history would stay over its early budget after it', () => {
    const wire = {
      roles: ['user', 'assistant', 'user', 'assistant', 'user', 'assistant'] as const,
      messageChars: [1, 1, 1, 746, 499, 4_264],
    };
    const input = {
      roles: [...wire.roles],
      messageChars: wire.messageChars,
      fixedChars: 2_000,
      tokensPerChar: 0.25,
      budgetTokens: 2_078,
      earlyBudgetTokens: 1_039,
      previousCut: 3,
      summaryChars: 800,
    };
    expect(planWireCompaction(input)).toMatchObject({ kind: 'compact', cut: 5, finishing: true });
    expect(planWireCompaction({ ...input, clientMessageChars: wire.messageChars })).toMatchObject({
      kind: 'keep',
      reason: 'nothing-to-cut',
    });
  });

  const conversation = fc
    .array(fc.tuple(fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: 0, max: 5_000 })), {
      minLength: 1,
      maxLength: 60,
    })
    .map((sizes) => ({
      roles: roles(sizes.length),
      messageChars: sizes.map(([sent]) => sent),
      // Density only shortens a message.
      clientMessageChars: sizes.map(([sent, removed]) => sent + removed),
    }));

  test.prop([
    conversation,
    fc.integer({ min: 500, max: 40_000 }),
    fc.integer({ min: 0, max: 60 }),
    fc.double({ min: 0.5, max: 1, noNaN: true }),
  ])(
    '#24.1 kept under the budget only when the sent request fits the budget and the client request the early budget; the client sizes never delay a compaction',
    (wire, budgetTokens, standing, earlyShare) => {
      const lastAssistant = wire.roles.lastIndexOf('assistant');
      const previousCut =
        standing <= lastAssistant && wire.roles[standing] === 'assistant' ? standing : 0;
      const earlyBudgetTokens = Math.floor(budgetTokens * earlyShare);
      const input = { ...wire, fixedChars: 2_000, tokensPerChar: 0.25, budgetTokens, previousCut };
      const full = { ...input, earlyBudgetTokens, summaryChars: 800 };
      const plan = planWireCompaction(full);
      if (plan.kind === 'keep' && plan.reason === 'under-budget') {
        expect(fitsBudget(full, previousCut)).toBe(true);
        expect(estimateWithCut(full, previousCut)).toBeLessThanOrEqual(budgetTokens);
        expect(
          estimateWithCut({ ...full, messageChars: wire.clientMessageChars }, previousCut),
        ).toBeLessThanOrEqual(earlyBudgetTokens);
      }
      // An early compaction (the sent request fits) leaves both under and the sent request smaller.
      const sentNow = estimateWithCut(full, previousCut);
      if (plan.kind === 'compact') expect(plan.sentTokens).toBe(sentNow);
      if (plan.kind === 'compact' && sentNow <= budgetTokens) {
        expect(fitsBudget(full, plan.cut)).toBe(true);
        expect(plan.estimatedTokens).toBeLessThan(sentNow);
      }
      const sentOnly = planWireCompaction({ ...full, clientMessageChars: undefined });
      // A compaction the sent request needs is made; it may cut further, so the client's
      // history fits the early budget too and the next request does not compact again. Finishing
      // a compaction is never needed (the request fits as sent): it is declined where the
      // client's history would still be over its early budget after it, as any early one is.
      if (sentOnly.kind === 'compact' && sentOnly.finishing !== true) {
        expect(plan.kind).toBe('compact');
        expect(plan.cut).toBeGreaterThanOrEqual(sentOnly.cut);
      }
    },
  );
});

describe('compactWire: the trigger', () => {
  it('#24.1 a request whose density keeps it under the budget is compacted when the client request is over it', () => {
    const [body] = bigSessionTurns(40_000, 1) as [string];
    const { input, sent } = densityCompactInput(body, 0);
    // A budget between the two sizes (4 characters a token).
    const budgetTokens = Math.floor((sent.length + body.length) / 8);
    expect(sent.length / 4).toBeLessThan(budgetTokens * 0.95);
    expect(body.length / 4).toBeGreaterThan(budgetTokens * 1.05);
    const result = compactWire({ ...input, budgetTokens });
    expect(result.kind).toBe('compacted');
  });
});

describe('compactWire: the early budget', () => {
  it('#24.1 a client request past the early share of the budget, under the budget itself, is compacted within the risk budget', () => {
    const [body] = bigSessionTurns(40_000, 1) as [string];
    const { input, sent } = densityCompactInput(body, 0);
    // The client request at 95% of the budget, the sent one well under the early budget.
    const budgetTokens = Math.ceil(body.length / 4 / 0.95);
    expect(body.length / 4).toBeGreaterThan(budgetTokens * EARLY_COMPACTION_SHARE);
    expect(sent.length / 4).toBeLessThan(budgetTokens * EARLY_COMPACTION_SHARE);
    const ample = { readMultiplier: 0.1, writeMultiplier: 1.25, riskTokens: () => 1e9 };
    const none = { ...ample, riskTokens: () => 0 };
    expect(compactWire({ ...input, budgetTokens, earlyRisk: none }).kind).toBe('none');
    expect(compactWire({ ...input, budgetTokens, earlyRisk: ample }).kind).toBe('compacted');
  });
});

describe('compactWire: a standing compaction', () => {
  it('#24.1 is moved on once the items after its cut pass the budget as the client sent them, though density keeps them under', () => {
    const [body] = bigSessionTurns(40_000, 1) as [string];
    const { input } = densityCompactInput(body, 0);
    const first = compactWire({ ...input, budgetTokens: 12_000 });
    if (first.kind !== 'compacted') throw new Error('not compacted');
    const tailFrom = input.wire.messageSpans[first.cut]?.start ?? body.length;
    const tailSaved = input.edits
      .within(tailFrom, body.length)
      .reduce((sum, edit) => sum + edit.end - edit.start - edit.length, 0);
    const budgetTokens = 4_000;
    // As sent, the standing compaction fits the budget; as the client sent its tail, it does not.
    expect(first.chars * 0.25).toBeLessThan(budgetTokens);
    expect((first.chars + tailSaved) * 0.25).toBeGreaterThan(budgetTokens * 1.2);
    const result = compactWire({ ...input, budgetTokens });
    expect(result).toMatchObject({ kind: 'compacted' });
    if (result.kind !== 'none') expect(result.cut).toBeGreaterThan(first.cut);
  });
});

describe('compactWire: what an early compaction may risk', () => {
  const prices = { readMultiplier: 0.1, writeMultiplier: 1.25 };
  it('#24.1 a compaction only the client history asks for is made when its up-front cost is within the risk budget, not beyond', () => {
    const [body] = bigSessionTurns(40_000, 1) as [string];
    const { input, sent } = densityCompactInput(body, 0);
    const budgetTokens = Math.floor((sent.length + body.length) / 8);
    const none = { ...prices, riskTokens: () => 0 };
    expect(compactWire({ ...input, budgetTokens, earlyRisk: none }).kind).toBe('none');
    const ample = { ...prices, riskTokens: () => 1e9 };
    expect(compactWire({ ...input, budgetTokens, earlyRisk: ample }).kind).toBe('compacted');
  });

  it('#24.1 a compaction the request as sent needs is made whatever the risk budget', () => {
    const [body] = bigSessionTurns(40_000, 1) as [string];
    const { input, sent } = densityCompactInput(body, 0);
    const budgetTokens = Math.floor((sent.length / 4) * 0.8);
    const none = { ...prices, riskTokens: () => 0 };
    expect(compactWire({ ...input, budgetTokens, earlyRisk: none }).kind).toBe('compacted');
  });
});

describe('withinRisk: the up-front cost', () => {
  // 10 turns of 4,000 tokens; the newest two (the last reply and its result) are new.
  const input: CompactionPlanInput = {
    roles: roles(10),
    messageChars: Array.from({ length: 10 }, () => 16_000),
    fixedChars: 0,
    tokensPerChar: 0.25,
    budgetTokens: 100_000,
    previousCut: 0,
    summaryChars: 4_000,
  };

  it('#24.1 leaves out the newest turn, which the request writes with or without the compaction', () => {
    // As sent now: the 10 turns, 40,000 tokens.
    const plan = { kind: 'compact', cut: 9, estimatedTokens: 5_000, sentTokens: 40_000 } as const;
    // Compacted, the request writes 5,000 tokens (the summary and the newest 4,000) where the
    // uncompacted one reads 36,000 and writes the same newest 4,000: 1.25 × 1,000 − 0.1 × 36,000.
    const risk = { readMultiplier: 0.1, writeMultiplier: 1.25, riskTokens: () => 0 };
    expect(withinRisk(risk, input, plan)).toEqual({ ...plan, upFrontTokens: 1_250 - 3_600 });
    // The summary of 12,000 tokens: 1.25 × 12,000 − 3,600 = 11,400 up front.
    const larger = { ...plan, estimatedTokens: 16_000 };
    expect(withinRisk({ ...risk, riskTokens: () => 11_399 }, input, larger)).toMatchObject({
      kind: 'keep',
      reason: 'over-risk',
    });
    expect(withinRisk({ ...risk, riskTokens: () => 11_400 }, input, larger)).toEqual({
      ...larger,
      upFrontTokens: 11_400,
    });
  });

  it('#24.1 on a cold cache (past the TTL since the previous request) pass-through writes everything too: a shorter request costs nothing up front', () => {
    const plan = { kind: 'compact', cut: 9, estimatedTokens: 16_000, sentTokens: 40_000 } as const;
    const risk = { readMultiplier: 0.1, writeMultiplier: 1.25, riskTokens: () => 0 };
    expect(withinRisk(risk, input, plan)).toMatchObject({ kind: 'keep', reason: 'over-risk' });
    expect(withinRisk({ ...risk, cold: true }, input, plan)).toEqual({ ...plan, upFrontTokens: 0 });
    // Free even when density's edits have cost more than they saved so far.
    const behind = { ...risk, cold: true, riskTokens: () => -500 };
    expect(withinRisk(behind, input, plan)).toEqual({ ...plan, upFrontTokens: 0 });
  });
});

describe('the compaction account', () => {
  const prices = { readMultiplier: 0.1, writeMultiplier: 1.25 };
  it('#24.1 an early compaction spends its up-front cost; a standing one adds what it keeps out, read no more', () => {
    const risk = { ...prices, riskTokens: () => 0 };
    const early = {
      kind: 'compact',
      cut: 3,
      estimatedTokens: 5_000,
      sentTokens: 20_000,
      upFrontTokens: 1_200,
    } as const;
    expect(compactionBooking(risk, { plan: early, keptOutTokens: 0 })).toBe(-1_200);
    const kept = { kind: 'keep', cut: 3, reason: 'under-budget' } as const;
    expect(compactionBooking(risk, { plan: kept, keptOutTokens: 30_000 })).toBe(3_000);
    // A compaction the request as sent needs is not a bet: nothing spent.
    const needed = { kind: 'compact', cut: 5, estimatedTokens: 5_000, sentTokens: 90_000 } as const;
    expect(compactionBooking(risk, { plan: needed, keptOutTokens: 0 })).toBe(0);
  });

  it('#24.1 compactWire books an early compaction and then each request its standing compaction keeps short', () => {
    const [body] = bigSessionTurns(40_000, 1) as [string];
    const { input, sent } = densityCompactInput(body, 0);
    const budgetTokens = Math.floor((sent.length + body.length) / 8);
    const ample = { ...prices, riskTokens: () => 1e9 };
    const first = compactWire({ ...input, budgetTokens, earlyRisk: ample });
    expect(first.kind === 'compacted' ? first.booking : 0).toBeLessThan(0);
    const again = compactWire({ ...input, budgetTokens, earlyRisk: ample });
    expect(again.kind === 'kept' ? again.booking : 0).toBeGreaterThan(0);
    // The account is the caller's: compactWire leaves it as it was.
    expect(input.state.compactionNet).toBeUndefined();
  });
});
