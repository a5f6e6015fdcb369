import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { estimateWithCut, planCompaction } from './planCompaction.js';

const conversation = fc
  .array(fc.integer({ min: 1, max: 5_000 }), { minLength: 1, maxLength: 60 })
  .map((chars) => ({
    roles: chars.map((_, i) => (i % 2 === 0 ? 'user' : 'assistant')),
    messageChars: chars,
    // Some messages carry pinned items a summary covering them keeps whole.
    pinnedChars: chars.map((c) => (c % 3 === 0 ? Math.floor(c / 2) : 0)),
  }));

describe('planCompaction', () => {
  test.prop([
    conversation,
    fc.integer({ min: 0, max: 20_000 }),
    fc.integer({ min: 500, max: 40_000 }),
    fc.integer({ min: 0, max: 60 }),
  ])(
    '#24.1 cuts only before an assistant message, never past the newest one nor before the standing cut; keeps when under budget; its estimate is estimateWithCut’s',
    (wire, fixedChars, budgetTokens, standing) => {
      const lastAssistant = wire.roles.lastIndexOf('assistant');
      const previousCut =
        standing <= lastAssistant && wire.roles[standing] === 'assistant' ? standing : 0;
      const input = {
        ...wire,
        fixedChars,
        tokensPerChar: 0.25,
        budgetTokens,
        previousCut,
        summaryChars: 800,
      };
      const plan = planCompaction(input);
      expect(plan.cut).toBeGreaterThanOrEqual(previousCut);
      if (plan.kind === 'keep') {
        expect(plan.cut).toBe(previousCut);
        if (plan.reason === 'under-budget') {
          expect(estimateWithCut(input, previousCut)).toBeLessThanOrEqual(budgetTokens);
        }
        return;
      }
      expect(wire.roles[plan.cut]).toBe('assistant');
      expect(plan.cut).toBeGreaterThan(previousCut);
      expect(plan.cut).toBeLessThanOrEqual(lastAssistant);
      expect(plan.estimatedTokens).toBe(estimateWithCut(input, plan.cut));
    },
  );
});
