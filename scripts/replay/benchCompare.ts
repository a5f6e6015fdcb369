/**
 * Our replay next to the simulation figures of prior-art §D (chars/4 tokens, no context limit),
 * and one line per peer policy saying where high-density beats or trails it. Pure.
 */
import type { ReplayPolicyId, ReplayTotals } from '@dense/core';
import {
  allStale,
  exposureTotal,
  groupFor,
  notRun,
  pct,
  ranPolicies,
  rewritesPer100,
} from './benchAggregate.js';
import { BENCH_LIMITS, type BenchRun } from './benchTypes.js';

interface PriorRow {
  readonly label: string;
  readonly policy: ReplayPolicyId;
  readonly input: string;
  readonly stale: string;
  readonly live: string;
  readonly rewrites: string;
  readonly cache: string;
}

/** prior-art.md §D, as published there. */
const PRIOR_ART: readonly PriorRow[] = [
  {
    label: 'spec-literal high-density',
    policy: 'high-density',
    input: '91.8%',
    stale: '54%',
    live: '1.0%',
    rewrites: '3.2',
    cache: '97.9%',
  },
  {
    label: 'same + shell reads/writes',
    policy: 'high-density+shell',
    input: '86.8%',
    stale: '88%',
    live: '1.0%',
    rewrites: '6.2',
    cache: '97.9%',
  },
  {
    label: 'high-density + recency 3',
    policy: 'high-density+recency',
    input: '54.1%',
    stale: '87%',
    live: '51%',
    rewrites: '76',
    cache: '131%',
  },
  {
    label: 'mask older than 10 turns',
    policy: 'mask-10-turns',
    input: '59.3%',
    stale: '67%',
    live: '48%',
    rewrites: '75',
    cache: '221%',
  },
  {
    label: 'keep last 3 above 100k',
    policy: 'keep-3-over-100k',
    input: '98.8%',
    stale: '2%',
    live: '2%',
    rewrites: '0.4',
    cache: '103%',
  },
  {
    label: 'prune beyond 40k when ≥ 20k',
    policy: 'prune-40k-20k',
    input: '98.9%',
    stale: '2%',
    live: '1%',
    rewrites: '0.1',
    cache: '100%',
  },
  {
    label: 'dedup newest copy over budget',
    policy: 'dedup-over-budget',
    input: '99.6%',
    stale: '3%',
    live: '0%',
    rewrites: '0.2',
    cache: '104%',
  },
];

interface Ours {
  readonly input: number;
  readonly cache: number;
  readonly stale: string;
  readonly live: number;
  /** Live file content lost to the policy's own edits (not its compression), % of file content. */
  readonly ownLive: number;
  readonly liveText: string;
  readonly rewrites: string;
}

function ours(runs: readonly BenchRun[], policy: ReplayPolicyId, limit: number): Ours {
  const none = groupFor(runs, 'none', limit).totals;
  const t: ReplayTotals = groupFor(runs, policy, limit).totals;
  const { stale, reclaimed } = allStale(t);
  const exposures = exposureTotal(t);
  const live = exposures === 0 ? 0 : (100 * t.liveLostTokens) / exposures;
  const ownLive = exposures === 0 ? 0 : (100 * t.liveLostTokensBy.density) / exposures;
  return {
    input: (100 * t.cumulativeInputTokens) / Math.max(1, none.cumulativeInputTokens),
    cache: (100 * t.cacheWeightedInputTokens) / Math.max(1, none.cacheWeightedInputTokens),
    stale: pct(reclaimed, stale),
    live,
    ownLive,
    liveText: `${live.toFixed(1)}% (density ${pct(t.liveLostTokensBy.density, exposures)})`,
    rewrites: rewritesPer100(t),
  };
}

function compare(label: string, us: number, them: number, unit = '%'): string {
  const diff = Math.abs(us - them).toFixed(1);
  if (Math.abs(us - them) < 0.05) return `${label} tie (${us.toFixed(1)}${unit})`;
  return us < them
    ? `${label} **we beat it** (${us.toFixed(1)}${unit} vs ${them.toFixed(1)}${unit}, ${diff} points)`
    : `${label} **we trail** (${us.toFixed(1)}${unit} vs ${them.toFixed(1)}${unit}, ${diff} points)`;
}

/** One line per limit and peer policy: where high-density beats or trails it. */
function peerBullets(runs: readonly BenchRun[], priors: readonly PriorRow[]): string[] {
  const skipped = notRun(runs, ['high-density', 'none']);
  if (skipped !== undefined) return [`- ${skipped}.`];
  const peers = priors.filter((p) => !p.policy.startsWith('high-density'));
  if (peers.length === 0) return ['- **not run** (needs a peer policy).'];
  return BENCH_LIMITS.flatMap((limit) => {
    const hd = ours(runs, 'high-density', limit);
    return peers.map((peer) => {
      const them = ours(runs, peer.policy, limit);
      return (
        `- ${limit / 1000}k, \`${peer.policy}\`: ${compare('cumulative input', hd.input, them.input)}; ` +
        `${compare('cost with caching', hd.cache, them.cache)}; ` +
        `${compare('live file content lost to its own edits', hd.ownLive, them.ownLive)}; ` +
        `${compare('live file content lost in all (compression included)', hd.live, them.live)}.`
      );
    });
  });
}

export function compareWithPriorArt(runs: readonly BenchRun[]): string {
  const [wide] = BENCH_LIMITS;
  const ran = new Set(ranPolicies(runs));
  const priors = PRIOR_ART.filter((prior) => ran.has(prior.policy));
  const table = [
    '| policy (prior-art §D) | §D input % none | ours 128k | §D stale reclaimed | ours | §D live lost | ours (% of file content) | §D rewrites / 100 calls | ours | §D cache % none | ours |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...priors.map((prior) => {
      const o = ours(runs, prior.policy, wide);
      return `| ${prior.label} (\`${prior.policy}\`) | ${prior.input} | ${o.input.toFixed(1)}% | ${prior.stale} | ${o.stale} | ${prior.live} | ${o.liveText} | ${prior.rewrites} | ${o.rewrites} | ${prior.cache} | ${o.cache.toFixed(1)}% |`;
    }),
  ];
  const bullets = peerBullets(runs, priors);
  return [
    '### Replay against prior-art §D',
    '',
    '§D simulated each policy over the same corpus with chars/4 tokens and no context limit; ours are real ' +
      'replays (o200k, 128k limit, so a few long sessions also compress). Stale reclaimed is over all ' +
      'stale file content (reads, inclusions, shell reads); our live lost counts density and compression.',
    '',
    ...table,
    '',
    'Where high-density (defaults) beats or trails each peer policy (lower is better in every column):',
    '',
    ...bullets,
  ].join('\n');
}
