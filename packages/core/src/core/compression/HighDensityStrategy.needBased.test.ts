import { describe, expect, it } from 'vitest';
import { HighDensityStrategy } from './HighDensityStrategy.js';
import { orderedSummaryCandidates } from './density/compress/summaryOrder.js';
import { makeCompressionContext } from '../../test-utils/compressionContext.js';
import { human, readFile, replaceInFile, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import { charEstimateTokenCounter } from '../../services/history/TokenCounter.js';
import type { IContent, ToolResponseBlock } from '../../services/history/IContent.js';

const big = (label: string, lines = 60) =>
  Array.from({ length: lines }, (_, i) => `${label} line ${i}: some file content here`).join('\n');

/** a.ts read then edited (stale), b.ts read twice (first superseded), a shell run, c.ts read once. */
function session(): IContent[] {
  return [
    human('go'),
    ...readFile('ra', '/workspace/a.ts', big('a')), // 1,2 stale (edited later)
    ...toolRoundTrip('sh', 'run_shell_command', { command: 'npm test' }, big('test')), // 3,4 other
    ...readFile('rb1', '/workspace/b.ts', big('b1')), // 5,6 superseded by rb2
    ...readFile('rc', '/workspace/c.ts', big('c')), // 7,8 live latest copy
    ...readFile('rb2', '/workspace/b.ts', big('b2')), // 9,10 live latest copy
    ...replaceInFile('ea', '/workspace/a.ts'), // 11,12
    human('next'),
    ...toolRoundTrip('tail', 'run_shell_command', { command: 'ls' }, 'x'), // tail
  ];
}

const resultOf = (history: readonly IContent[], callId: string) =>
  history
    .flatMap((e) => e.blocks)
    .find((b): b is ToolResponseBlock => b.type === 'tool_response' && b.callId === callId)?.result;

describe('need-based compress() (issue #11.2)', () => {
  it('#11.2 orders stale and superseded first, then other results oldest first, live latest copies last', () => {
    const order = orderedSummaryCandidates(session(), 13, { workspaceRoot: '/workspace' }).map(
      (c) => `${c.rank}:${c.entryIndex}`,
    );
    expect(order).toEqual(['0:2', '0:6', '1:4', '1:12', '2:8', '2:10']);
  });

  it('#11.2 summarizes only what the target needs: stale before live, live latest copies kept whole', async () => {
    const history = session();
    const probe = await makeCompressionContext({ history, tokenCounter: charEstimateTokenCounter });
    const full = await probe.estimateTokens(history);
    // A limit whose target (0.85 × 0.6) sits just below the full size: summarizing the stale
    // copy of a.ts is enough.
    const limit = Math.floor((full - 200) / (0.85 * 0.6));
    const context = await makeCompressionContext({
      history,
      // No trail: its reserve would lower the target this test calibrates against.
      settings: {
        'context-limit': limit,
        'compression.preserveThreshold': 0.1,
        'compression.artifactTrail': false,
        'compression.density.workingBudget': 0,
      },
      tokenCounter: charEstimateTokenCounter,
    });
    const result = await new HighDensityStrategy().compress(context);
    if (result.kind !== 'applied') throw new Error(`noop: ${result.reason}`);
    const next = result.newHistory;
    expect(String(resultOf(next, 'ra'))).toMatch(
      /^\[read_file a\.ts — success, .*; recall id r[0-9a-f]{10}\]$/,
    );
    expect(resultOf(next, 'rb1')).toBe(big('b1'));
    expect(resultOf(next, 'rc')).toBe(big('c'));
    expect(resultOf(next, 'rb2')).toBe(big('b2'));
    expect(resultOf(next, 'sh')).toBe(big('test'));
    expect(result.metadata.entriesDropped).toBe(0);
  });

  it('#11.2 summarizes a live latest copy only when nothing else is left, oldest first', async () => {
    const history = session();
    const context = await makeCompressionContext({
      history,
      // No trail: its reserve (a share of the window) would move the target this test sets.
      settings: {
        'context-limit': 2_000,
        'compression.preserveThreshold': 0.1,
        'compression.artifactTrail': false,
        'compression.density.workingBudget': 0,
      },
      tokenCounter: charEstimateTokenCounter,
    });
    const result = await new HighDensityStrategy().compress(context);
    if (result.kind !== 'applied') throw new Error(`noop: ${result.reason}`);
    const kept = result.newHistory;
    for (const id of ['ra', 'rb1', 'sh', 'rc']) {
      expect(String(resultOf(kept, id))).toContain('; recall id r');
    }
    expect(resultOf(kept, 'rb2')).toBe(big('b2'));
  });
});

describe('need-based compress() with a tail over the target (issue #11.2)', () => {
  /** A small head, then a preserved tail of large results, the newest one not answered yet. */
  function tailHeavy(): IContent[] {
    return [
      human('go'),
      ...toolRoundTrip('h1', 'run_shell_command', { command: 'pwd' }, '/workspace'),
      human('now the files'),
      ...readFile('t1', '/workspace/a.ts', big('a', 120)),
      ...toolRoundTrip('t2', 'run_shell_command', { command: 'npm test' }, big('test', 120)),
      ...readFile('t3', '/workspace/b.ts', big('b', 120)),
      ...readFile('t4', '/workspace/c.ts', big('c', 120)),
    ];
  }

  async function compressAt(pointerStyle: 'recall' | 'spec', limit = 6_000) {
    const history = tailHeavy();
    const settings = {
      'context-limit': limit,
      'compression.preserveThreshold': 0.8,
      'compression.artifactTrail': false,
      'compression.density.workingBudget': 0,
      'compression.density.pointerStyle': pointerStyle,
    };
    const context = await makeCompressionContext({
      history,
      settings,
      tokenCounter: charEstimateTokenCounter,
    });
    const result = await new HighDensityStrategy().compress(context);
    if (result.kind !== 'applied') throw new Error(`noop: ${result.reason}`);
    const target = Math.floor(0.85 * limit * 0.6);
    return { result, target, tokens: await context.estimateTokens(result.newHistory) };
  }

  it('#11.2 summarizes the oldest tail results down to the target, never the newest turn', async () => {
    const { result, target, tokens } = await compressAt('recall');
    // The tail alone (4 large results) is over the target: the old code stopped above it.
    expect(tokens).toBeLessThanOrEqual(target);
    const kept = result.newHistory;
    expect(String(resultOf(kept, 't1'))).toMatch(
      /^\[read_file a\.ts — .*; recall id r[0-9a-f]{10}\]$/,
    );
    expect(String(resultOf(kept, 't2'))).toContain('; recall id r');
    // Only as many as needed: the live copy of b.ts stays whole, and the newest turn always does.
    expect(resultOf(kept, 't3')).toBe(big('b', 120));
    expect(resultOf(kept, 't4')).toBe(big('c', 120));
  });

  it('#11.2 the newest turn stays whole even when the target cannot be reached without it', async () => {
    const { result } = await compressAt('recall', 2_000);
    for (const id of ['t1', 't2', 't3']) {
      expect(String(resultOf(result.newHistory, id))).toContain('; recall id r');
    }
    expect(resultOf(result.newHistory, 't4')).toBe(big('c', 120));
  });

  it('#11.2 spec-literal mode keeps the preserved tail untouched (REQ-HD-008)', async () => {
    const { result, target, tokens } = await compressAt('spec');
    expect(tokens).toBeGreaterThan(target);
    for (const [id, text] of [
      ['t1', big('a', 120)],
      ['t2', big('test', 120)],
      ['t3', big('b', 120)],
      ['t4', big('c', 120)],
    ] as const) {
      expect(resultOf(result.newHistory, id)).toBe(text);
    }
  });
});
