/**
 * The replay table of lossless by reference: per strategy and limit, live file content
 * removed split into recallable (the context still names its recall id) and lost for good, the
 * sessions with any irrecoverable live loss, compressions, and the artifact-trail survival (touched
 * paths and commands still named in the context after each compression). Pure.
 */
import type { ReplayPolicyId } from '@dense/core';
import { groupFor, int, pct } from './benchAggregate.js';
import { BENCH_LIMITS, type BenchRun } from './benchTypes.js';
import { row } from './markdownTable.js';

const POLICIES: readonly ReplayPolicyId[] = [
  'high-density',
  'middle-out',
  'one-shot',
  'top-down-truncation',
];

export function losslessTable(runs: readonly BenchRun[]): string {
  const lines = [
    '### Replay: lossless by reference',
    '',
    'Live file content removed: recallable (the line left behind names its recall id) vs lost for ' +
      'good; sessions with any irrecoverable live loss; artifact trail: touched paths and commands ' +
      'still named in the context after each compression (Σ over compressions).',
    '',
    row([
      'policy',
      'limit',
      'live lost',
      'of it recallable',
      'irrecoverable',
      'sessions irrecoverable',
      'compressions',
      'artifact survival',
    ]),
    row(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  for (const policy of POLICIES) {
    for (const limit of BENCH_LIMITS) {
      const group = groupFor(runs, policy, limit);
      if (group.runs.length === 0) continue;
      const t = group.totals;
      const recallable = t.liveLostRecallableTokens ?? 0;
      const survival = t.artifactSurvival ?? { touched: 0, present: 0 };
      const lostSessions = group.runs.filter(
        (run) => run.report.liveLostTokens - (run.report.liveLostRecallableTokens ?? 0) > 0,
      ).length;
      lines.push(
        row([
          policy,
          `${limit / 1000}k`,
          int(t.liveLostTokens),
          int(recallable),
          int(t.liveLostTokens - recallable),
          `${lostSessions} / ${group.runs.length}`,
          int(t.compressions),
          `${pct(survival.present, survival.touched)} (${int(survival.touched)})`,
        ]),
      );
    }
  }
  return lines.join('\n');
}
