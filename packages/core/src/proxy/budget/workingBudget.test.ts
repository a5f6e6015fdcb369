import { describe, expect, it } from 'vitest';
import {
  clientCompactionThreshold,
  clientWindow,
  defaultWorkingBudget,
  MAX_WORKING_BUDGET,
} from './workingBudget.js';

/** Claude Code's measured threshold for a 200k window. */
const CLAUDE_CODE_THRESHOLD = 167_000;

/** The smallest default: an unknown model's (its 128,000-token window less 33,000 and a 25,000-token result). */
const MIN_DEFAULT_BUDGET = 70_000;

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

  it("#24.1 Qwen Code's threshold is the smaller of 85% of its window and the window less 33,000 (167,000 for its default 200,000); the default budget leaves room for a whole result below it", () => {
    const scripted = { model: 'scripted-model', longContext: false, client: 'qwen-code' } as const;
    expect(clientWindow(scripted)).toBe(200_000);
    expect(clientCompactionThreshold(scripted)).toBe(167_000);
    expect(defaultWorkingBudget(scripted)).toBe(MAX_WORKING_BUDGET);
    const cases: [string, number, number][] = [
      ['qwen3-coder-plus', 1_000_000, 850_000],
      ['qwen3-max', 262_144, 222_822],
      ['gpt-4o', 131_072, 98_072],
      ['deepseek-chat', 131_072, 98_072],
      ['claude-sonnet-4-6', 200_000, 167_000],
    ];
    for (const [model, window, threshold] of cases) {
      const input = { model, longContext: false, client: 'qwen-code' } as const;
      expect(clientWindow(input)).toBe(window);
      expect(clientCompactionThreshold(input)).toBe(threshold);
      expect(defaultWorkingBudget(input) + 25_000).toBeLessThanOrEqual(threshold);
    }
  });

  it("#24.1 a Qwen model name without a known client gets Qwen Code's window and threshold, not the Codex rule", () => {
    const qwen = { model: 'qwen3-coder-plus', longContext: false };
    expect(clientWindow(qwen)).toBe(1_000_000);
    expect(clientCompactionThreshold(qwen)).toBe(850_000);
    expect(defaultWorkingBudget(qwen)).toBe(MAX_WORKING_BUDGET);
    expect(clientCompactionThreshold({ model: 'dashscope/qwen3-max', longContext: false })).toBe(
      222_822,
    );
  });
});

describe("Claude Code's model → window table", () => {
  it('#34.4 the models Claude Code 2.1.331 treats as 1M without the beta header (its default claude-opus-5-5 among them) get a 1M window; the others stay at 200k without it', () => {
    const native = [
      'claude-opus-5-5',
      'claude-opus-5',
      'claude-opus-4-8',
      'claude-opus-4-7',
      'claude-sonnet-5-5',
      'claude-sonnet-5',
      'claude-haiku-5-5',
      'claude-fable-5-2',
      'claude-opus-5-5[1m]',
      'us.anthropic.claude-opus-4-7-v1:0',
    ];
    for (const model of native) {
      const input = { model, longContext: false, client: 'claude-code' as const };
      expect(clientWindow(input), model).toBe(1_000_000);
      expect(clientCompactionThreshold(input), model).toBe(967_000);
    }
    for (const model of ['claude-sonnet-4-6', 'claude-opus-4-6', 'claude-opus-4-5']) {
      const input = { model, longContext: false, client: 'claude-code' as const };
      expect(clientWindow(input), model).toBe(200_000);
      expect(clientCompactionThreshold(input), model).toBe(CLAUDE_CODE_THRESHOLD);
      expect(clientWindow({ ...input, longContext: true }), model).toBe(
        model === 'claude-opus-4-5' ? 200_000 : 1_000_000,
      );
    }
  });
});
