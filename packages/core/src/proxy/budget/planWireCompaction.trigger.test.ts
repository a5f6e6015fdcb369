import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { bigSessionTurns } from '../test-utils/bigSession.js';
import { densityCompactInput } from '../test-utils/densityCompactInput.js';
import { compactWire } from './compactWire.js';
import {
  estimateWithCut,
  fitsBudget,
  planWireCompaction,
  type CompactionPlanInput,
} from './planWireCompaction.js';

const roles = (count: number): string[] =>
  Array.from({ length: count }, (_, i) => (i % 2 === 0 ? 'user' : 'assistant'));

describe('planWireCompaction: the trigger', () => {
  it('#24.1 compacts once the client history passes the budget, though density keeps the sent request under it', () => {
    const input: CompactionPlanInput = {
      roles: roles(20),
      // Density halved every message: the sent request (10,000 tokens) is under the budget.
      messageChars: Array.from({ length: 20 }, () => 2_000),
      clientMessageChars: Array.from({ length: 20 }, () => 4_000),
      fixedChars: 0,
      tokensPerChar: 0.25,
      budgetTokens: 15_000,
      previousCut: 0,
      summaryChars: 800,
    };
    expect(estimateWithCut(input, 0)).toBeLessThanOrEqual(input.budgetTokens);
    const plan = planWireCompaction(input);
    expect(plan.kind).toBe('compact');
    // The cut is chosen on the sent sizes.
    if (plan.kind === 'compact')
      expect(plan.estimatedTokens).toBe(estimateWithCut(input, plan.cut));
    const sentOnly = { ...input, clientMessageChars: undefined };
    expect(planWireCompaction(sentOnly)).toMatchObject({ kind: 'keep', reason: 'under-budget' });
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

  test.prop([conversation, fc.integer({ min: 500, max: 40_000 }), fc.integer({ min: 0, max: 60 })])(
    '#24.1 kept under the budget only when both the sent and the client request fit it; the client sizes never delay a compaction',
    (wire, budgetTokens, standing) => {
      const lastAssistant = wire.roles.lastIndexOf('assistant');
      const previousCut =
        standing <= lastAssistant && wire.roles[standing] === 'assistant' ? standing : 0;
      const input = { ...wire, fixedChars: 2_000, tokensPerChar: 0.25, budgetTokens, previousCut };
      const full = { ...input, summaryChars: 800 };
      const plan = planWireCompaction(full);
      if (plan.kind === 'keep' && plan.reason === 'under-budget') {
        expect(fitsBudget(full, previousCut)).toBe(true);
        expect(
          estimateWithCut({ ...full, messageChars: wire.clientMessageChars }, previousCut),
        ).toBeLessThanOrEqual(budgetTokens);
      }
      const sentOnly = planWireCompaction({ ...full, clientMessageChars: undefined });
      if (sentOnly.kind === 'compact') expect(plan).toEqual(sentOnly);
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
    expect(first.text.length * 0.25).toBeLessThan(budgetTokens);
    expect((first.text.length + tailSaved) * 0.25).toBeGreaterThan(budgetTokens * 1.2);
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
