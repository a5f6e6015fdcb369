import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { OFFLINE_SUMMARIZER_LABEL } from '@dense/core';
import { compressionTurns, formatDemoTable, reportedTurns } from './formatDemoTable.js';
import { formatCount } from './formatCount.js';
import { DEMO_VARIANTS } from './demoVariants.js';
import type { DemoReport } from './runDemo.js';
import type { DemoRun } from './runDemoSession.js';

const ZERO = { count: 0, tokens: 0 };

function run(index: number, overrides: Partial<DemoRun> = {}): DemoRun {
  return {
    variant: DEMO_VARIANTS[index]!,
    turnsCompleted: 22,
    contextTokens: Array.from({ length: 22 }, (_, i) => (i + 1) * 1000 + index),
    peakContextTokens: 22_000,
    cumulativeInputTokens: 1_234_567,
    cacheWeightedInputTokens: 150_000 + index,
    modelCalls: 50,
    summarizerCalls: 0,
    toolCalls: 40,
    failedToolCalls: 2,
    compressions: [],
    density: { readWrite: ZERO, dedup: ZERO, recency: ZERO, edits: 0, deferredTokens: 0 },
    keptOut: { notes: 0, tokens: 0 },
    finalContextTokens: 21_000,
    threshold: 0.85,
    ...overrides,
  };
}

const report: DemoReport = {
  runs: [
    run(0, {
      compressions: [
        { turn: 12, tokensBefore: 13_700, tokensAfter: 9000 },
        { turn: 19, tokensBefore: 13_650, tokensAfter: 9100 },
      ],
      summarizerCalls: 2,
    }),
    run(3, {
      density: {
        readWrite: { count: 21, tokens: 8255 },
        dedup: { count: 1, tokens: 317 },
        recency: ZERO,
        edits: 18,
        deferredTokens: 0,
      },
      keptOut: { notes: 2, tokens: 640 },
    }),
  ],
  contextLimit: 16_000,
  threshold: 0.85,
  turns: 22,
  chartPath: '/tmp/x/chart.svg',
  workspaces: {},
};

function rowOf(text: string, label: string): string[] {
  const line = text.split('\n').find((l) => l.startsWith(label));
  if (line === undefined) throw new Error(`no row ${label}`);
  return line
    .slice(label.length)
    .trim()
    .split(/\s{2,}/);
}

describe('formatDemoTable', () => {
  const text = formatDemoTable(report);

  it('names the session length, the context limit and the threshold in tokens', () => {
    expect(text).toContain('the same 22-turn scripted coding session');
    expect(text).toContain(
      'Context limit 16,000 tokens; compression runs at 0.85 of it (13,600 tokens)',
    );
  });

  it('has one column per strategy, headed by its label', () => {
    const header = text.split('\n').slice(2, 5).join('\n');
    expect(header).toContain('middle-out');
    expect(header).toContain('high-density');
  });

  it('reports context tokens at every tenth turn and the last turn', () => {
    expect(rowOf(text, 'context tokens, turn 10')).toEqual(['10,000', '10,003']);
    expect(rowOf(text, 'context tokens, turn 20')).toEqual(['20,000', '20,003']);
    expect(rowOf(text, 'context tokens, turn 22')).toEqual(['22,000', '22,003']);
    expect(text).not.toContain('turn 30');
  });

  it('reports compressions with their turns, and a dash where there were none', () => {
    expect(rowOf(text, 'compressions')).toEqual(['2', '0']);
    expect(rowOf(text, '  during turns')).toEqual(['12, 19', '–']);
  });

  it('reports tokens and items reclaimed per density pass', () => {
    expect(rowOf(text, 'reclaimed: stale reads')).toEqual(['–', '8,255 (21)']);
    expect(rowOf(text, 'reclaimed: stale @')).toEqual(['–', '317 (1)']);
    expect(rowOf(text, 'reclaimed: recency')).toEqual(['–', '–']);
    expect(rowOf(text, 'density edits')).toEqual(['–', '18']);
  });

  it('#14.2 reports the repeats kept out as notes (tokens, notes)', () => {
    expect(rowOf(text, 'kept out: repeats')).toEqual(['–', '640 (2)']);
  });

  it('reports the work done: model, summarizer and tool calls', () => {
    expect(rowOf(text, 'model calls')).toEqual(['50', '50']);
    expect(rowOf(text, 'summarizer calls')).toEqual(['2', '–']);
    expect(rowOf(text, 'tool calls (red test runs)')).toEqual(['40 (2)', '40 (2)']);
    expect(rowOf(text, 'input tokens, all calls')).toEqual(['1,234,567', '1,234,567']);
    expect(rowOf(text, '  priced with caching')).toEqual(['150,000', '150,003']);
  });

  it('labels the LLM summaries as the offline summarizer', () => {
    expect(text).toContain(OFFLINE_SUMMARIZER_LABEL);
  });

  it('holds no path and no timing, so it is the same for the same report', () => {
    expect(text).not.toContain('/tmp');
    expect(formatDemoTable(report)).toBe(text);
  });

  it('prints a dash for a turn a run did not reach', () => {
    const short = formatDemoTable({ ...report, runs: [run(0, { contextTokens: [1, 2, 3] })] });
    expect(rowOf(short, 'context tokens, turn 10')).toEqual(['–']);
  });
});

describe('reportedTurns', () => {
  it('is every tenth turn plus the last', () => {
    expect(reportedTurns(44)).toEqual([10, 20, 30, 40, 44]);
    expect(reportedTurns(40)).toEqual([10, 20, 30, 40]);
    expect(reportedTurns(7)).toEqual([7]);
    expect(reportedTurns(0)).toEqual([]);
  });

  test.prop([fc.integer({ min: 1, max: 10_000 })], { numRuns: 200 })(
    'is ascending, ends at the last turn and contains every multiple of ten',
    (turns) => {
      const reported = reportedTurns(turns);
      expect(reported.at(-1)).toBe(turns);
      expect([...reported].sort((a, b) => a - b)).toEqual(reported);
      expect(new Set(reported).size).toBe(reported.length);
      expect(reported.filter((t) => t % 10 === 0)).toHaveLength(Math.floor(turns / 10));
    },
  );
});

describe('compressionTurns', () => {
  it('lists up to three turns and shortens longer lists to the first two and the last', () => {
    expect(compressionTurns([])).toBe('–');
    expect(compressionTurns([24, 30, 39])).toBe('24, 30, 39');
    expect(compressionTurns([13, 16, 20, 23, 28, 39])).toBe('13, 16 … 39');
  });
});

describe('formatCount', () => {
  it.each([
    [0, '0'],
    [999, '999'],
    [1000, '1,000'],
    [1_234_567, '1,234,567'],
    [13_599.6, '13,600'],
  ])('formats %d as %s', (value, text) => {
    expect(formatCount(value)).toBe(text);
  });
});
