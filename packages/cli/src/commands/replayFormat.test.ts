import { describe, expect, it } from 'vitest';
import {
  cacheEffectVsNone,
  totalReplayReports,
  zeroCacheCosts,
  type ReplaySessionReport,
} from '@dense/core';
import {
  formatCacheEffect,
  formatProgressBar,
  formatSessionReport,
  formatSessionRows,
  formatTotals,
  percentOf,
} from './replayFormat.js';
import { replayReport } from '../test-utils/replayReport.js';

const report: ReplaySessionReport = replayReport({
  file: '/corpus/raw/x/session.jsonl',
  strategy: 'high-density',
  turns: 3,
  modelCalls: 10,
  toolCalls: 8,
  cumulativeInputTokens: 123_456,
  peakContextTokens: 20_000,
  finalContextTokens: 19_000,
  densityRemovedTokens: { readWrite: 1500, dedup: 200, recency: 0 },
  exposureTokens: { reads: 5000, inclusions: 400, shellReads: 0 },
  staleTokens: { reads: 2000, inclusions: 300, shellReads: 0 },
  staleReclaimedTokens: { reads: 1500, inclusions: 200, shellReads: 0 },
  historyRewrites: 2,
  historyRewriteDepth: { meanEntries: 4.5, meanTokens: 1800 },
  cacheWeightedInputTokens: 40_000,
  densityOverheadMs: { median: 0.12, p99: 1.5, samples: 10 },
});

describe('replay formatting', () => {
  it('percentages say – when there is nothing to divide', () => {
    expect(percentOf(1500, 2000)).toBe('75.0%');
    expect(percentOf(0, 0)).toBe('–');
  });

  it('a session table lists every figure with thousands separators', () => {
    const text = formatSessionReport(report);
    expect(text).toContain('session.jsonl (claude-code)');
    expect(text).toMatch(/cumulative input tokens\s+123,456$/m);
    expect(text).toMatch(/stale reads reclaimed\s+1,500 of 2,000 \(75\.0%\)$/m);
    expect(text).toMatch(/history rewrites \(mean depth\)\s+2 \(4\.5 entries, 1,800 tokens\)$/m);
    expect(text).toMatch(/first compression turn\s+–$/m);
    expect(text).not.toContain('summaries written by');
  });

  it('rows: right-aligned numbers, a second session of a file is named #n, a total row', () => {
    const second = { ...report, sessionIndex: 1, cumulativeInputTokens: 1 };
    const totals = totalReplayReports([report, second]);
    const lines = formatSessionRows([report, second], totals).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[1]).toMatch(/^session\.jsonl\s+claude-code\s+10\s+123,456\s/);
    expect(lines[2]).toMatch(/^session\.jsonl#1\s+claude-code\s+10\s+1\s/);
    expect(lines[3]).toMatch(/^total\s+20\s+123,457\s/);
    expect(formatTotals(totals)).toMatch(/sessions \(compressed\)\s+2 \(0\)/);
  });

  it('#25.3 #25.4 grounding and work redone: a row each in the tables, a column in the rows', () => {
    const kinds = ['path', 'line-ref', 'test-name', 'error', 'identifier', 'number'] as const;
    const zero = { specifics: 0, visible: 0, recallable: 0, hidden: 0 };
    const grounded: ReplaySessionReport = {
      ...report,
      grounding: {
        specifics: 200,
        visible: 190,
        recallable: 6,
        hidden: 4,
        byKind: Object.fromEntries(kinds.map((k) => [k, zero])) as never,
        examples: [],
      },
      workRedone: { reacquired: 5, redone: 3, keptInContext: 2 },
    };
    const text = formatSessionReport(grounded);
    expect(text).toMatch(
      /grounding: visible \/ recallable \/ hidden\s+95\.0% \(190 \/ 6 \/ 4 of 200\)$/m,
    );
    expect(text).toMatch(/work redone after compaction \(kept in context\)\s+3 \(2\)$/m);
    const totals = totalReplayReports([grounded]);
    expect(formatSessionRows([grounded], totals).split('\n')[1]).toMatch(/\s95\.0%\s/);
    expect(formatSessionReport(report)).not.toContain('grounding');
  });

  it('#14.5 the cache effect vs none: input saved, reads/writes gained or lost, cost per provider', () => {
    const costs = zeroCacheCosts();
    const priced = (read: number, write: number, weighted: number) => ({
      ...costs.anthropic,
      cacheReadTokens: read,
      cacheWriteTokens: write,
      weightedTokens: weighted,
    });
    const mine = {
      cumulativeInputTokens: 90_000,
      cacheCost: {
        ...costs,
        anthropic: priced(70_000, 20_000, 32_000),
        openai: priced(70_000, 0, 27_000),
      },
    };
    const none = {
      cumulativeInputTokens: 100_000,
      cacheCost: {
        ...costs,
        anthropic: priced(90_000, 10_000, 21_500),
        openai: priced(90_000, 0, 19_000),
      },
    };
    const text = formatCacheEffect(cacheEffectVsNone(mine, none));
    expect(text).toMatch(/input tokens saved\s+10,000$/m);
    expect(text).toMatch(/cache reads \/ writes \(Anthropic\)\s+-20,000 \/ \+10,000$/m);
    expect(text).toMatch(/Anthropic 5m \/ OpenAI\s+148\.8% \(\+10,500\) \/ 142\.1% \(\+8,000\)$/m);
  });

  it('the progress bar fills in proportion and is cut to the width', () => {
    expect(formatProgressBar(5, 10, 'a.json')).toBe('[##########----------] 5/10 a.json');
    expect(formatProgressBar(0, 0, '')).toBe('[####################] 0/0 ');
    expect(formatProgressBar(1, 4, 'x'.repeat(100), 40)).toHaveLength(40);
  });
});
