import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ReplayPolicyId, ReplaySessionReport } from '@dense/core';
import { selfCompactedSection } from './benchApart.js';
import type { BenchRun } from './benchTypes.js';
import { syntheticRun } from './test-utils/benchRun.js';

function grounding(visible: number, hidden: number): ReplaySessionReport['grounding'] {
  const zero = { specifics: 0, visible: 0, recallable: 0, hidden: 0 };
  const byKind = { path: zero, 'line-ref': zero, 'test-name': zero, error: zero };
  return {
    specifics: visible + hidden,
    visible,
    recallable: 0,
    hidden,
    byKind: { ...byKind, identifier: zero, number: zero },
    examples: [],
  };
}

function run(
  policy: ReplayPolicyId,
  limit: number | null,
  fields: Partial<ReplaySessionReport>,
  recordedCompactions = 1,
  extra: Partial<BenchRun> = {},
): BenchRun {
  const base = syntheticRun(policy, limit, { format: 'dense-session', ...fields });
  return { ...base, recordedCompactions, ...extra };
}

/** The docs' name of a session: its source and the first six hex digits of sha256(file name). */
const NAME = `synthetic ${createHash('sha256').update('a.jsonl').digest('hex').slice(0, 6)}`;

describe('bench: sessions that compacted themselves', () => {
  it('#25.1 one synthetic self-compacted session: its line, its per-session rows at 128k and the usage fit, under its bench name', () => {
    const section = selfCompactedSection([
      run('none', null, {
        modelCalls: 12,
        peakContextTokens: 150_000,
        cacheWeightedInputTokens: 10_000,
        cumulativeInputTokens: 20_000,
      }),
      run(
        'recorded',
        null,
        {
          compressions: 1,
          cacheWeightedInputTokens: 8_000,
          cumulativeInputTokens: 16_000,
          timeBlocked: {
            timed: 1,
            totalMs: 2_500,
            maxMs: 2_500,
            perCompactionMs: [2_500],
            source: 'recorded',
          },
        },
        1,
        {
          recordedUsage: {
            all: { kind: 'not-compared', reason: 'no-call-after' },
            after: {
              kind: 'compared',
              fixedPrompt: 20_000,
              checkedCalls: 4,
              ratio: 1.02,
              medianError: 0.031,
              maxError: 0.05,
              within5Percent: 3,
              worst: [{ call: 7, predicted: 10_500, recorded: 10_000, error: 0.05 }],
            },
          },
        },
      ),
      run('high-density', 128_000, {
        compressions: 2,
        cacheWeightedInputTokens: 6_000,
        cumulativeInputTokens: 12_000,
        liveLostTokensBy: { density: 0, compression: 300 },
        grounding: grounding(9, 1),
        workRedone: { reacquired: 3, redone: 2, keptInContext: 1 },
      }),
      // A session that never compacted itself is left out of the section.
      run('none', null, { file: 'synthetic/other.jsonl', modelCalls: 99 }, 0),
    ]);
    const lines = section.split('\n');
    expect(lines[0]).toBe(
      "### Replay: sessions that compacted themselves, against the agent's own compaction",
    );
    expect(lines).toContain(
      `Sessions: ${NAME}: 1 compaction(s), 12 calls, peak without context management 150,000.`,
    );
    expect(lines).toContain(
      `| ${NAME} | \`recorded\` | 80.0% | 100.0% | 80.0% | 1 | 2.5 s | 0 | – | 0 | 0 |`,
    );
    expect(lines).toContain(
      `| ${NAME} | \`high-density\` | 60.0% | 75.0% | 60.0% | 2 | 0.0 s | 300 | 90.0% | 1 | 2 |`,
    );
    expect(lines).toContain(
      `| ${NAME} | \`recorded\` | – | no-call-after | – | 3.1% | 3 / 4 | 102.0% | 8: +5.0% |`,
    );
    expect(section).not.toContain('other.jsonl');
    expect(section).not.toContain('99 calls');
  });

  it('#25.1 says so when no session compacted itself', () => {
    const section = selfCompactedSection([run('none', null, {}, 0)]);
    expect(section.split('\n').at(-1)).toMatch(/None in this corpus\.$/);
  });
});
