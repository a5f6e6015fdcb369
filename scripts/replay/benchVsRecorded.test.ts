import { describe, expect, it } from 'vitest';
import type { ReplayPolicyId } from '@dense/core';
import { syntheticRun } from './test-utils/benchRun.js';
import { limitLabel, vsRecordedMarkdown } from './benchVsRecorded.js';
import type { BenchRun } from './benchTypes.js';

/** One run of `policy` for session `file` costing `cost`, from `source`. */
function run(
  file: string,
  policy: ReplayPolicyId,
  limit: number | null,
  cost: number,
  compactions = 0,
  source = 'agent-a',
): BenchRun {
  const base = syntheticRun(policy, limit, {
    file,
    modelCalls: 10,
    cacheCost: { anthropic: { weightedTokens: cost } } as BenchRun['report']['cacheCost'],
  });
  return { ...base, source, recordedCompactions: compactions };
}

describe('bench: high-density against none and recorded (--limits)', () => {
  it('#35.3 limits are spelt as on the command line', () => {
    expect([128_000, 200_000, 1_000_000, 2_000_000, 1_500].map(limitLabel)).toEqual([
      '128k',
      '200k',
      '1M',
      '2M',
      '1,500',
    ]);
  });

  it('#35.3 overall, per source and per session, self-compacted sessions included, with the sessions over the lines named', () => {
    const runs = [
      // A session the agent compacted itself: recorded is half of none.
      run('s1.jsonl', 'none', null, 1000, 1),
      run('s1.jsonl', 'recorded', null, 500, 1),
      run('s1.jsonl', 'high-density', 128_000, 600, 1),
      run('s1.jsonl', 'high-density', 1_000_000, 900, 1),
      // A session that never compacted: recorded is none.
      run('s2.jsonl', 'none', null, 1000, 0, 'agent-b'),
      run('s2.jsonl', 'recorded', null, 1000, 0, 'agent-b'),
      run('s2.jsonl', 'high-density', 128_000, 1010, 0, 'agent-b'),
      run('s2.jsonl', 'high-density', 1_000_000, 900, 0, 'agent-b'),
    ];
    const text = vsRecordedMarkdown(runs, [128_000, 1_000_000]);
    expect(text).toContain(
      '| sessions | n | 128k: % none | 128k: % recorded | 1M: % none | 1M: % recorded |',
    );
    expect(text).toContain('| all | 2 | 80.5% | 107.3% | 90.0% | 120.0% |');
    expect(text).toContain('| self-compacted | 1 | 60.0% | 120.0% | 90.0% | 180.0% |');
    expect(text).toContain('| agent-b | 1 | 101.0% | 101.0% | 90.0% | 90.0% |');
    const lines = text.split('\n');
    const over = (title: string) => lines.slice(lines.indexOf(title) + 1, lines.indexOf(title) + 3);
    expect(over('Sessions above 100.5% of `none`:')).toEqual([
      expect.stringMatching(/^- 128k: 1 — agent-b [0-9a-f]{6} \(101\.0%\)$/),
      '- 1M: 0',
    ]);
    expect(over('Self-compacted sessions above 95.0% of `recorded`:')).toEqual([
      expect.stringMatching(/^- 128k: 1 — agent-a [0-9a-f]{6} \(120\.0%\)$/),
      expect.stringMatching(/^- 1M: 1 — agent-a [0-9a-f]{6} \(180\.0%\)$/),
    ]);
    const perSession = lines.filter((line) => /^\| agent-[ab] [0-9a-f]{6} /.test(line));
    expect(perSession).toHaveLength(2);
    expect(perSession.find((line) => line.startsWith('| agent-a'))).toMatch(
      /\| 1 \| 10 \| 50\.0% \| 60\.0% \| \*\*120\.0%\*\* \| 90\.0% \| \*\*180\.0%\*\* \|$/,
    );
    // Session names only: never the transcript's file name.
    expect(text).not.toContain('s1.jsonl');
  });

  it('#35.3 says what it needs when a --policies run left a policy out', () => {
    expect(vsRecordedMarkdown([run('s1.jsonl', 'none', null, 1000)], [128_000])).toContain(
      'not run',
    );
  });
});
