import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReplayError } from './replayErrors.js';
import { listTranscriptFiles } from './listTranscriptFiles.js';
import { memoTokenCounter } from './memoTokenCounter.js';
import { bucketOverhead } from './overheadBuckets.js';
import { getReplayPolicy, REPLAY_POLICY_IDS, replayPolicies } from './replayPolicies.js';
import { median, percentile } from './metrics/percentile.js';
import { instrumentStrategy } from './instrumentStrategy.js';
import { HighDensityStrategy } from '../core/compression/HighDensityStrategy.js';
import { TopDownTruncationStrategy } from '../core/compression/TopDownTruncationStrategy.js';
import { readFile, replaceInFile } from '../test-utils/historyBuilders.js';

describe('replay support', () => {
  it('lists a directory recursively in sorted order, skipping hidden files; a file is itself', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'dense-replay-list-'));
    try {
      await mkdir(path.join(dir, 'b'));
      await writeFile(path.join(dir, 'b', 'z.json'), '[]');
      await writeFile(path.join(dir, 'a.jsonl'), '');
      await writeFile(path.join(dir, '.hidden'), '');
      expect(await listTranscriptFiles(dir)).toEqual([
        path.join(dir, 'a.jsonl'),
        path.join(dir, 'b', 'z.json'),
      ]);
      expect(await listTranscriptFiles(path.join(dir, 'a.jsonl'))).toEqual([
        path.join(dir, 'a.jsonl'),
      ]);
      await expect(listTranscriptFiles(path.join(dir, 'nope'))).rejects.toBeInstanceOf(ReplayError);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('the memo counter counts each distinct text once and returns the inner counts', async () => {
    let calls = 0;
    const counter = memoTokenCounter({ countText: (t) => (calls++, t.length) });
    const long = 'x'.repeat(1000);
    expect(await counter.countText(long)).toBe(1000);
    expect(await counter.countText(`${'x'.repeat(999)}x`)).toBe(1000);
    expect(await counter.countText('short')).toBe(5);
    expect(calls).toBe(2);
    expect(counter.misses()).toBe(2);
  });

  it('percentiles are nearest-rank; overhead buckets by history tokens', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 99)).toBe(10);
    expect(percentile([], 50)).toBe(0);
    const buckets = bucketOverhead([
      { historyTokens: 500, entries: 3, ms: 1 },
      { historyTokens: 9_999, entries: 3, ms: 3 },
      { historyTokens: 120_000, entries: 3, ms: 9 },
    ]);
    expect(buckets.map((b) => [b.fromTokens, b.toTokens, b.samples, b.medianMs])).toEqual([
      [0, 10_000, 2, 1],
      [10_000, 25_000, 0, 0],
      [25_000, 50_000, 0, 0],
      [50_000, 100_000, 0, 0],
      [100_000, null, 1, 9],
    ]);
  });

  it('every policy id resolves; an unknown one names the valid ids', () => {
    expect(replayPolicies().map((p) => p.id)).toEqual([...REPLAY_POLICY_IDS]);
    expect(() => getReplayPolicy('nope')).toThrow(/Use one of: none, recorded, middle-out/);
    expect(getReplayPolicy('none').unlimited).toBe(true);
  });

  it('instrumentStrategy passes calls through, times optimize and hands over the history it edits', () => {
    const seen: { elapsed: number; before: number | undefined }[] = [];
    let clock = 0;
    const wrapped = instrumentStrategy(
      new HighDensityStrategy(),
      {
        optimized: (_r, elapsed, before) => seen.push({ elapsed, before: before?.length }),
        compressing: () => undefined,
      },
      () => (clock += 5),
    );
    const config = {
      readWritePruning: true,
      fileDedupe: true,
      recencyPruning: false,
      recencyRetention: 3,
      workspaceRoot: '/w',
    };
    const history = [...readFile('r1', 'a', 'x'.repeat(100)), ...replaceInFile('w1', 'a')];
    expect(wrapped.optimize?.(history, config).removals).toEqual([0, 1]);
    expect(wrapped.optimize?.(history.slice(2), config).removals).toEqual([]);
    expect(seen).toEqual([
      { elapsed: 5, before: 4 },
      { elapsed: 5, before: undefined },
    ]);
    expect(
      instrumentStrategy(
        new TopDownTruncationStrategy(),
        { optimized: () => undefined, compressing: () => undefined },
        () => 0,
      ).optimize,
    ).toBeUndefined();
  });
});
