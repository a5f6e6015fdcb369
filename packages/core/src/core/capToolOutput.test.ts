import { describe, expect, it } from 'vitest';
import { capToolOutput, shortenOutput, toolOutputCapTokens } from './capToolOutput.js';
import { toolResponseBlock, type ToolResponseBlock } from '../services/history/IContent.js';
import { recallIdOfResponse } from './compression/recallPointers.js';

/** chars/4, as `charEstimateTokenCounter`. */
const countTokens = (text: string) => Promise.resolve(Math.ceil(text.length / 4));

const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`).join('\n');

function shell(result: unknown, error?: string): ToolResponseBlock {
  return toolResponseBlock({
    callId: 'call_1',
    toolName: 'run_shell_command',
    result,
    ...(error === undefined ? {} : { error }),
  });
}

describe('capToolOutput', () => {
  it('#22.8 an output within the cap is left alone', async () => {
    const outcome = await capToolOutput({ block: shell(lines(10)), capTokens: 100, countTokens });
    expect(outcome).toEqual({ kind: 'within-cap' });
  });

  it('#22.8 an output over the cap shows its head and tail and a notice with the counts and the recall id of the whole output', async () => {
    const block = shell(lines(1000));
    const outcome = await capToolOutput({ block, capTokens: 200, countTokens });
    if (outcome.kind !== 'capped') throw new Error('expected capped');
    const shown = outcome.block.result as string;
    expect(outcome.shownTokens).toBeLessThanOrEqual(200);
    expect(shown.startsWith('line 1\nline 2\n')).toBe(true);
    expect(shown.endsWith('line 999\nline 1000')).toBe(true);
    const notice = shown.split('\n').find((l) => l.startsWith('[…'))!;
    const shownLines = shown.split('\n').length - 1;
    expect(notice).toContain(`(${1000 - shownLines} of 1000 lines not shown in full)`);
    expect(notice).toContain(`recall id ${recallIdOfResponse(block)} returns it whole`);
    expect(outcome.original).toEqual({
      callId: 'call_1',
      toolName: 'run_shell_command',
      text: lines(1000),
    });
    // Deterministic.
    expect(await capToolOutput({ block, capTokens: 200, countTokens })).toEqual(outcome);
  });

  it('#22.8 a single long line is cut inside the line; the elided characters add up', async () => {
    const text = 'x'.repeat(10_000);
    const outcome = await capToolOutput({ block: shell(text), capTokens: 100, countTokens });
    if (outcome.kind !== 'capped') throw new Error('expected capped');
    const shown = outcome.block.result as string;
    const [head, notice, tail] = shown.split('\n');
    expect(notice).toContain('(1 of 1 lines not shown in full)');
    expect(notice).toContain(`${10_000 - head!.length - tail!.length} of 10000 chars elided`);
  });

  it('#22.8 a failed call whose error holds the output stays failed, the error capped', async () => {
    const outcome = await capToolOutput({
      block: shell('', lines(1000)),
      capTokens: 100,
      countTokens,
    });
    if (outcome.kind !== 'capped') throw new Error('expected capped');
    expect(outcome.block.result).toBe('');
    expect(outcome.block.error).toContain('returns it whole');
    expect(outcome.original.text).toBe(lines(1000));
  });

  it('#22.8 a JSON result is capped as its JSON text; a shortened copy is cut again from the original', async () => {
    const value = { rows: Array.from({ length: 500 }, (_, i) => ({ i })) };
    const first = await capToolOutput({ block: shell(value), capTokens: 300, countTokens });
    if (first.kind !== 'capped') throw new Error('expected capped');
    expect(first.original.text).toBe(JSON.stringify(value));
    const again = await capToolOutput({
      block: first.block,
      capTokens: 100,
      countTokens,
      original: first.original,
    });
    if (again.kind !== 'capped') throw new Error('expected capped');
    expect(again.original).toEqual(first.original);
    expect(again.shownTokens).toBeLessThanOrEqual(100);
    expect((again.block.result as string).startsWith('{"rows":[{"i":0}')).toBe(true);
  });

  it('shortenOutput with no budget is the notice alone', () => {
    expect(shortenOutput('a\nb\n', 0, 'r0123456789')).toBe(
      '[… 4 of 4 chars elided here (2 of 2 lines not shown in full): the output is over the size cap for one tool result; recall id r0123456789 returns it whole …]',
    );
  });

  it('the cap is the setting times the window', () => {
    expect(toolOutputCapTokens({ contextLimit: 10_000, toolOutputCap: 0.25 })).toBe(2500);
    expect(toolOutputCapTokens({ contextLimit: 10_000, toolOutputCap: 0.001 })).toBe(10);
    expect(toolOutputCapTokens({ contextLimit: 100, toolOutputCap: 0.001 })).toBe(1);
  });
});

describe('capToolOutput and density replies', () => {
  it('#22.8 a short density reply standing for a long output is within the cap (capping it would grow it)', async () => {
    const original = 'line\n'.repeat(5_000);
    const block = {
      ...toolResponseBlock({
        callId: 'c2',
        toolName: 'glob',
        result: '[same output as call c1 — that copy is still above]',
      }),
      original,
    };
    const outcome = await capToolOutput({
      block,
      capTokens: 200,
      countTokens: (text) => Promise.resolve(Math.ceil(text.length / 4)),
    });
    expect(outcome.kind).toBe('within-cap');
  });
});
