import { describe, expect, it } from 'vitest';
import {
  clientCompactionThreshold,
  clientWindow,
  defaultWorkingBudget,
  MAX_WORKING_BUDGET,
  MIN_DEFAULT_BUDGET,
} from './workingBudget.js';

/** Claude Code's measured threshold for a 200k window. */
const CLAUDE_CODE_THRESHOLD = 167_000;

describe('the default working budget', () => {
  it("#24.1 stays below Claude Code's 167k threshold with room for a whole Read", () => {
    for (const model of ['claude-sonnet-4-6', 'claude-opus-4-5', 'claude-sonnet-4-5-20250929']) {
      const budget = defaultWorkingBudget({ model, longContext: false });
      expect(budget).toBe(MAX_WORKING_BUDGET);
      expect(budget + 25_000).toBeLessThanOrEqual(CLAUDE_CODE_THRESHOLD);
    }
  });

  it('#24.1 #24.5 is at most 80k, for 200k and 1M-token windows alike (the largest budget at which no bench session costs more than pass-through)', () => {
    expect(MAX_WORKING_BUDGET).toBe(80_000);
    expect(clientWindow({ model: 'claude-sonnet-4-6', longContext: true })).toBe(1_000_000);
    expect(defaultWorkingBudget({ model: 'claude-sonnet-4-6', longContext: true })).toBe(
      MAX_WORKING_BUDGET,
    );
    expect(defaultWorkingBudget({ model: 'gpt-5.4', longContext: false })).toBe(MAX_WORKING_BUDGET);
  });

  it('#24.1 an unknown model gets the smallest default, which no default is below', () => {
    expect(defaultWorkingBudget({ model: undefined, longContext: false })).toBe(MIN_DEFAULT_BUDGET);
    for (const model of ['gpt-4o', 'claude-haiku-4-5', 'o3', 'claude-x']) {
      expect(defaultWorkingBudget({ model, longContext: false })).toBeGreaterThanOrEqual(
        MIN_DEFAULT_BUDGET,
      );
    }
  });

  it("#24.1 Codex's threshold is 90% of the window its own table gives the model (244,800 for gpt-6.1-sol); the default budget stays far below it", () => {
    const codex = { model: 'gpt-6.1-sol', longContext: false };
    expect(clientWindow(codex)).toBe(272_000);
    expect(clientCompactionThreshold(codex)).toBe(244_800);
    expect(defaultWorkingBudget(codex)).toBe(MAX_WORKING_BUDGET);
    expect(clientCompactionThreshold({ model: 'claude-sonnet-4-6', longContext: false })).toBe(
      CLAUDE_CODE_THRESHOLD,
    );
  });
});
