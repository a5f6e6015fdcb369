import { describe, expect, it } from 'vitest';
import { REPLAY_POLICY_IDS, type ReplayPolicyId } from '@dense/core';
import { parseBenchArgs } from './benchArgs.js';
import { ranPolicies } from './benchAggregate.js';
import { cacheTargetsSection } from './benchCacheTargets.js';
import { replayMarkdown } from './benchMarkdown.js';
import { targetsSection } from './benchTargets.js';
import { BENCH_LIMITS, type BenchRun } from './benchTypes.js';
import { syntheticRun } from './test-utils/benchRun.js';

const meta = { date: '2026-01-01', machine: 'test', wallMs: 1, workers: 1, files: 1, failures: [] };

/** One session replayed under `policies` only, as `--policies` leaves it. */
function runsOf(policies: readonly ReplayPolicyId[]): BenchRun[] {
  const fields = { modelCalls: 10, cumulativeInputTokens: 10_000, cacheWeightedInputTokens: 5_000 };
  return policies.flatMap((policy) =>
    policy === 'none' || policy === 'recorded'
      ? [syntheticRun(policy, null, fields)]
      : BENCH_LIMITS.map((limit) =>
          syntheticRun(policy, limit, { ...fields, cumulativeInputTokens: 9_000 }),
        ),
  );
}

/** The first cells of the table rows that name a policy. */
const policyRows = (markdown: string): string[] =>
  markdown
    .split('\n')
    .map((line) => /^\| `([^`]+)` \|/.exec(line)?.[1])
    .filter((policy): policy is string => policy !== undefined);

describe('bench:replay --policies: only what ran', () => {
  it('#32.4 --policies is checked against the policy ids and writes no docs', () => {
    const args = parseBenchArgs(['--policies', 'none,high-density'], {
      corpus: '/c',
      workers: 1,
    });
    expect(args.policies).toEqual(['none', 'high-density']);
    expect(args.docs).toBe(false);
    expect(() =>
      parseBenchArgs(['--policies', 'none,hihg-density'], { corpus: '/c', workers: 1 }),
    ).toThrow(/--policies takes policy ids/);
  });

  it('#32.4 the report prints only the policies it ran, never an unrun one as 0.0%', () => {
    const runs = runsOf(['none', 'high-density']);
    expect(ranPolicies(runs)).toEqual(['none', 'high-density']);
    const markdown = replayMarkdown(runs, meta);
    expect(new Set(policyRows(markdown))).toEqual(new Set(['none', 'high-density']));
    expect(markdown).toContain(`2 of ${REPLAY_POLICY_IDS.length} policies`);
    expect(markdown).not.toContain('`middle-out`');
  });

  it('#32.4 a target that needs a policy the run left out is "not run", not "missed"', () => {
    const noDefaults = runsOf(['none', 'middle-out']);
    const targets = targetsSection(noDefaults);
    expect(targets).toContain('**not run** (needs `high-density`)');
    expect(targets).not.toContain('**missed**');
    const cache = cacheTargetsSection(runsOf(['high-density', 'middle-out']));
    expect(cache).toContain('**not run** (needs `none`)');
    expect(cache).not.toContain('**missed**');
    // No rival with a context limit ran: the 32k cost ranking has nothing to rank against.
    expect(cacheTargetsSection(runsOf(['none', 'high-density']))).toContain(
      '32k, lowest cache-weighted cost among policies losing no live content to density: **not run**',
    );
    // With the defaults and one baseline that ran, nothing unrun counts against the targets.
    const ran = targetsSection(runsOf(['none', 'high-density']));
    expect(ran).not.toContain('not run');
    expect(ran).toContain('below 1 of 1 (**met**)');
  });
});
