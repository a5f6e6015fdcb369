/** The savings' copy of the proxy's budget rule agrees with the proxy's own (`workingBudget.ts`). */
import { describe, expect, it } from 'vitest';
import {
  clientWindow,
  defaultWorkingBudget,
} from '../../../core/src/proxy/budget/workingBudget.js';
import { proxyWorkingBudget } from './proxyWorkingBudget.js';

const MODELS = [
  'claude-sonnet-4-5-20250929',
  'claude-opus-4-1',
  'claude-haiku-4-5',
  'an-unknown-model',
  'gpt-5-codex',
  'gpt-4o',
  'gpt-unknown-9',
  'o3',
];

describe('#37.1 proxyWorkingBudget', () => {
  it('#37.1 gives the proxy’s default budget for Claude Code and Codex sessions', () => {
    for (const model of MODELS) {
      for (const client of ['claude-code', 'codex'] as const) {
        const input = { model, longContext: false, client };
        expect(proxyWorkingBudget(client, model).budget, `${client} ${model}`).toBe(
          defaultWorkingBudget(input),
        );
      }
    }
  });

  it('#37.1 the window is the client’s, except native 1M Claude models taken at 200k (same budget)', () => {
    expect(proxyWorkingBudget('codex', 'gpt-5-codex').window).toBe(
      clientWindow({ model: 'gpt-5-codex', longContext: false, client: 'codex' }),
    );
    expect(proxyWorkingBudget('claude-code', 'claude-sonnet-4-5').window).toBe(200_000);
    expect(proxyWorkingBudget('claude-code', 'claude-sonnet-4-6').budget).toBe(
      defaultWorkingBudget({
        model: 'claude-sonnet-4-6',
        longContext: false,
        client: 'claude-code',
      }),
    );
    expect(proxyWorkingBudget('gemini-cli', 'gemini-2.5-pro').budget).toBe(80_000);
  });

  it("#37.1 a gemini-cli session: Claude Code's rule at the model's 1M window, known model or not", () => {
    expect(proxyWorkingBudget('gemini-cli', 'gemini-2.5-pro')).toEqual({
      window: 1_048_576,
      budget: 80_000,
    });
    expect(proxyWorkingBudget('gemini-cli', 'gemini-9-unknown')).toEqual({
      window: 1_048_576,
      budget: 80_000,
    });
    expect(proxyWorkingBudget('gemini-cli', undefined)).toEqual({
      window: 1_048_576,
      budget: 80_000,
    });
  });
});
