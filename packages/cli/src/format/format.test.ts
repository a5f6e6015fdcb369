import { describe, expect, it } from 'vitest';
import type { ContextReport } from '@dense/core';
import { contextReportLines } from './contextReportLines.js';
import { describeToolCall, toolOutcome, toolResultLine } from './describeToolCall.js';
import { describeRetry } from './describeRetry.js';
import { formatCompact, formatCount, formatPercent } from './formatTokens.js';
import { usageBar } from './usageBar.js';

const report: ContextReport = {
  strategy: 'high-density',
  threshold: 0.85,
  contextLimit: 128_000,
  breakdown: {
    totalTokens: 12_345,
    entries: 9,
    bySpeaker: { human: 1_000, ai: 2_345, tool: 9_000 },
    byTool: { read_file: 8_000, replace: 1_000 },
  },
  density: {
    readWrite: { count: 1, tokens: 412 },
    dedup: { count: 0, tokens: 0 },
    recency: { count: 2, tokens: 100 },
    edits: 2,
    deferredTokens: 0,
  },
  reclaimedTokens: 512,
  compressions: [
    {
      at: 0,
      strategy: 'high-density',
      kind: 'applied',
      tokensBefore: 100_000,
      tokensAfter: 60_000,
    },
    {
      at: 1,
      strategy: 'high-density',
      kind: 'noop',
      reason: 'already-under-target',
      tokensBefore: 50_000,
      tokensAfter: 50_000,
    },
  ],
};

describe('formatting', () => {
  it('token numbers', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatCompact(950)).toBe('950');
    expect(formatCompact(1_500)).toBe('1.5k');
    expect(formatCompact(12_345)).toBe('12k');
    expect(formatCompact(1_050_000)).toBe('1.05M');
    expect(formatPercent(0.0964)).toBe('9.6%');
    expect(formatPercent(0.85)).toBe('85%');
  });

  it('usage bar clamps and fills proportionally', () => {
    expect(usageBar(0.5, 10)).toBe('█████░░░░░');
    expect(usageBar(2, 4)).toBe('████');
    expect(usageBar(Number.NaN, 3)).toBe('░░░');
  });

  it('tool calls and outcomes in one line', () => {
    expect(describeToolCall({ name: 'read_file', parameters: { file_path: 'a.ts' } })).toBe(
      'read_file a.ts',
    );
    expect(
      describeToolCall({ name: 'run_shell_command', parameters: { command: 'npm  test\n' } }),
    ).toBe('run_shell_command `npm test`');
    expect(describeToolCall({ name: 'todo_read', parameters: {} })).toBe('todo_read');
    expect(describeToolCall({ name: 'x', parameters: 'not json' })).toBe('x');
    expect(toolOutcome({ error: 'TOOL_DENIED: no' })).toBe('denied');
    expect(toolOutcome({ error: 'CANCELLED: the user cancelled' })).toBe('cancelled');
    expect(toolOutcome({})).toBe('done');
    expect(toolResultLine({ result: '\nfirst line\nsecond' })).toBe('first line');
  });

  it('/context lines: usage, strategy, speakers, tools, each density pass, each compression', () => {
    const lines = contextReportLines(report, {
      switches: { readWrite: true, dedup: true, recency: false },
      clock: (at) => `t${at}`,
      barWidth: 10,
    }).map((l) => l.text);
    expect(lines).toEqual([
      'Context: 12,345 of 128,000 tokens (9.6%) █░░░░░░░░░',
      'Strategy: high-density · threshold 0.85 (compresses at 108,800 tokens)',
      'By speaker: human 1,000 · ai 2,345 · tool 9,000 (9 entries)',
      'By tool:',
      '  read_file  8,000',
      '  replace    1,000',
      'Density this session (2 history edits):',
      '  READ→WRITE   1 stale read pruned · 412 tokens freed',
      '  @file stale  0 stale @file inclusions pruned · 0 tokens freed',
      '  recency      2 old results pruned · 100 tokens freed (off)',
      '  total        512 tokens reclaimed',
      'Compressions (2):',
      '  t0  high-density  100,000 → 60,000 tokens',
      '  t1  high-density  50,000 → 50,000 tokens (nothing done: the history is already smaller than the compression target)',
      // #13.6: what compression removed, in total.
      'Compression removed 40,000 tokens in 1 run (the full transcript stays in the session recording)',
    ]);
  });

  it('#13.6 #11 what compression removed says how much the history still names by recall id', () => {
    const withRecall = { ...report, recallable: { ids: 39, entries: 12 } };
    const lines = contextReportLines(withRecall).map((l) => l.text);
    expect(lines.at(-1)).toBe('Compression removed 40,000 tokens in 1 run · 39 recallable by id');
  });

  it('#13.6 /context shows what rides on every request and a window bar by category', () => {
    const lines = contextReportLines(report, {
      prompt: {
        systemTokens: 3_200,
        memoryFiles: [{ path: '/ws/AGENTS.md', tokens: 640 }],
        toolSchemaTokens: 6_400,
      },
      workspaceRoot: '/ws',
    }).map((l) => l.text);
    expect(lines).toContain(
      'Sent with every request (never pruned): system prompt 3,200 · memory files 640 · tool schemas 6,400',
    );
    expect(lines).toContain('  memory  AGENTS.md  640');
    // 128k over 40 cells: prompt 10,240 → 3 cells, you 1,000 → 1, model 2,345 → 1, results 9,000 → 3.
    expect(lines).toContain(
      `Window [PPPUARRR${'·'.repeat(32)}] P prompt · U you · A model · R tool results · free`,
    );
  });

  it('#14.2 /context says how many repeated copies were kept out as notes and what they saved', () => {
    const kept = { ...report, keptOut: { notes: 3, tokens: 12_500 } };
    expect(contextReportLines(kept).map((l) => l.text)).toContain(
      '  kept out     3 repeats noted · 12,500 tokens never sent',
    );
    expect(contextReportLines(kept, { width: 40 }).map((l) => l.text)).toContain(
      '  kept out: 3 repeats, 12,500 tokens',
    );
    const none = { ...report, keptOut: { notes: 0, tokens: 0 } };
    expect(contextReportLines(none).some((l) => l.text.includes('kept out'))).toBe(false);
  });

  it('/context lines on a narrow terminal use the compact density form', () => {
    const lines = contextReportLines(report, { width: 40 }).map((l) => l.text);
    expect(lines).toContain('  READ→WRITE: 1 stale read, 412 tokens');
    expect(lines).toContain('  total: 512 tokens reclaimed');
  });

  it('#14.5 /context shows density’s cache effect under the session provider’s rules', () => {
    const densityCache = {
      provider: 'openai' as const,
      notSentTokens: 4_000,
      rewrittenTokens: 1_500,
      modelCalls: 5,
      netWeightedTokens: { anthropic: 900, 'anthropic-1h': 1_500, openai: -250, gemini: -250 },
      net: -250,
    };
    const lines = contextReportLines({ ...report, densityCache }).map((l) => l.text);
    expect(lines).toContain(
      '  cache (OpenAI (automatic prefix caching)): 4,000 tokens not re-sent · 1,500 re-written after edits · net saved 250 input-token units',
    );
    const costly = { ...densityCache, provider: 'anthropic' as const, net: 900 };
    expect(contextReportLines({ ...report, densityCache: costly }).map((l) => l.text)).toContain(
      '  cache (Anthropic (5-minute cache)): 4,000 tokens not re-sent · 1,500 re-written after edits · net cost 900 more input-token units',
    );
  });
});

describe('describeRetry', () => {
  it('#13.2 names the reason, the attempt of the bound and the whole seconds left', () => {
    const notice = {
      reason: 'rate-limited',
      status: 429,
      nextAttempt: 2,
      maxAttempts: 4,
      delayMs: 3000,
    } as const;
    expect(describeRetry(notice)).toBe('rate limited — retry 2/4 in 3 s');
    expect(describeRetry(notice, 2100)).toBe('rate limited — retry 2/4 in 3 s');
    expect(describeRetry(notice, -5)).toBe('rate limited — retry 2/4 in 0 s');
    expect(describeRetry({ ...notice, reason: 'server-error', status: 502 }, 0)).toBe(
      'server error 502 — retry 2/4 in 0 s',
    );
    expect(describeRetry({ ...notice, reason: 'overloaded', status: 529 })).toContain(
      'server overloaded',
    );
  });
});
