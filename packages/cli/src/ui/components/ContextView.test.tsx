import { Box } from 'ink';
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { ContextReport } from '@dense/core';
import { ContextView } from './ContextView.js';

const report: ContextReport = {
  strategy: 'high-density',
  threshold: 0.85,
  contextLimit: 200_000,
  breakdown: {
    totalTokens: 50_000,
    entries: 12,
    bySpeaker: { human: 2_000, ai: 8_000, tool: 40_000 },
    byTool: { read_file: 30_000, run_shell_command: 10_000 },
  },
  density: {
    readWrite: { count: 3, tokens: 9_100 },
    dedup: { count: 1, tokens: 2_000 },
    recency: { count: 0, tokens: 0 },
    edits: 2,
    deferredTokens: 0,
  },
  reclaimedTokens: 11_100,
  compressions: [
    {
      at: 0,
      strategy: 'high-density',
      kind: 'applied',
      tokensBefore: 180_000,
      tokensAfter: 90_000,
    },
  ],
};

describe('ContextView', () => {
  it('renders every part of the breakdown', () => {
    const { lastFrame } = render(
      <ContextView
        report={report}
        switches={{ readWrite: true, dedup: true, recency: false }}
        width={100}
        clock={() => '08:30:00'}
      />,
    );
    const frame = lastFrame() ?? '';
    expect(frame).toContain('Context: 50,000 of 200,000 tokens (25%)');
    expect(frame).toContain(
      'Strategy: high-density · threshold 0.85 (compresses at 170,000 tokens)',
    );
    expect(frame).toContain('By speaker: human 2,000 · ai 8,000 · tool 40,000 (12 entries)');
    expect(frame).toMatch(/read_file\s+30,000/);
    expect(frame).toMatch(/run_shell_command\s+10,000/);
    expect(frame).toContain('READ→WRITE   3 stale reads pruned · 9,100 tokens freed');
    expect(frame).toContain('@file stale  1 stale @file inclusion pruned · 2,000 tokens freed');
    expect(frame).toContain('recency      0 old results pruned · 0 tokens freed (off)');
    expect(frame).toContain('total        11,100 tokens reclaimed');
    expect(frame).toContain('08:30:00  high-density  180,000 → 90,000 tokens');
  });

  it('fits a narrow terminal: no line wider than the terminal', () => {
    const { lastFrame } = render(
      <Box width={40}>
        <ContextView report={report} width={40} />
      </Box>,
    );
    for (const line of (lastFrame() ?? '').split('\n')) {
      expect(line.length).toBeLessThanOrEqual(40);
    }
    expect(lastFrame()).toContain('READ→WRITE: 3 stale reads, 9,100');
  });
});
