import { describe, expect, it } from 'vitest';
import { HighDensityStrategy } from './HighDensityStrategy.js';
import { orderedSummaryCandidates } from './density/summaryOrder.js';
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
