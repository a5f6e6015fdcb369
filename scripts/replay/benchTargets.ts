/**
 * The replay's three targets for high-density's defaults, checked on the bench's runs and
 * reported honestly: which sessions miss a target, and why (which exposures, what became of them).
 * A target whose policies the run left out (`--policies`) is "not run", never "missed". Pure.
 */
import type { ReplayPolicyId } from '@dense/core';
import {
  groupFor,
  hasDedicatedTools,
  int,
  notRun,
  pct,
  isLimitless,
  ranPolicies,
  sessionKey,
  sessionName,
} from './benchAggregate.js';
import { BENCH_LIMITS, type BenchRun } from './benchTypes.js';

const TARGET_RATIO = 0.9;
const limitName = (limit: number) => `${limit / 1000}k`;

function defaults(runs: readonly BenchRun[], limit: number): BenchRun[] {
  return runs.filter((run) => run.policy === 'high-density' && run.limit === limit);
}

/** How many files a list of losses touched and the largest's tokens (paths stay in `--json`). */
function byFile(items: readonly { filePath: string; tokens: number }[]): string {
  const sums = new Map<string, number>();
  for (const item of items) sums.set(item.filePath, (sums.get(item.filePath) ?? 0) + item.tokens);
  return `${sums.size} file(s), the largest ${int(Math.max(0, ...sums.values()))} tokens`;
}

function liveLossTarget(runs: readonly BenchRun[]): string[] {
  const lines = ['- **`liveLostTokens = 0` with defaults (losses caused by density).**'];
  const skipped = notRun(runs, ['high-density']);
  if (skipped !== undefined) return [...lines, `  - ${skipped}.`];
  for (const limit of BENCH_LIMITS) {
    const hd = defaults(runs, limit);
    const failing = hd.filter((run) => run.report.liveLostTokensBy.density > 0);
    const compressed = hd.filter((run) => run.report.liveLostTokensBy.compression > 0);
    const byCompression = compressed.reduce((s, r) => s + r.report.liveLostTokensBy.compression, 0);
    lines.push(
      `  - ${limitName(limit)}: ${failing.length === 0 ? '**met**' : '**missed**'} — ${failing.length} of ` +
        `${hd.length} sessions lose live file content to density. Compression (past the threshold, ` +
        `reported separately) lost ${int(byCompression)} live tokens in ${compressed.length} sessions` +
        (compressed.length === 0
          ? '.'
          : `: ${compressed
              .slice(0, 3)
              .map((r) => `${sessionName(r)} (${int(r.report.liveLostTokensBy.compression)})`)
              .join(', ')}${compressed.length > 3 ? ', …' : ''}.`),
    );
    for (const run of failing) {
      const density = run.liveLosses.filter((loss) => loss.cause === 'density');
      lines.push(
        `    - ${sessionName(run)}: ${int(run.report.liveLostTokensBy.density)} tokens — ${byFile(density)}`,
      );
    }
  }
  return lines;
}

function fates(run: BenchRun): string {
  const sum = (fate: string) =>
    run.staleReadsLeft.filter((left) => left.fate === fate).reduce((s, l) => s + l.tokens, 0);
  return `left in context ${int(sum('in-context'))}, removed earlier while live ${int(sum('lost-live'))}, as duplicate ${int(sum('lost-duplicate'))}`;
}

function staleReadTarget(runs: readonly BenchRun[]): string[] {
  const lines = [
    `- **Stale reads reclaimed ≥ ${TARGET_RATIO} on sessions with dedicated read/write tools** ` +
      '(every format but mini-swe-agent, sessions with stale reads only).',
  ];
  const skipped = notRun(runs, ['high-density']);
  if (skipped !== undefined) return [...lines, `  - ${skipped}.`];
  for (const limit of BENCH_LIMITS) {
    const eligible = defaults(runs, limit).filter(
      (run) => hasDedicatedTools(run) && run.report.staleTokens.reads > 0,
    );
    const ratio = (run: BenchRun) =>
      run.report.staleReclaimedTokens.reads / run.report.staleTokens.reads;
    const below = eligible.filter((run) => ratio(run) < TARGET_RATIO);
    const stale = eligible.reduce((s, r) => s + r.report.staleTokens.reads, 0);
    const reclaimed = eligible.reduce((s, r) => s + r.report.staleReclaimedTokens.reads, 0);
    lines.push(
      `  - ${limitName(limit)}: ${below.length === 0 ? '**met**' : '**missed**'} — ${below.length} of ` +
        `${eligible.length} sessions below ${TARGET_RATIO}; overall ${pct(reclaimed, stale)} ` +
        `(${int(reclaimed)} of ${int(stale)} tokens).`,
    );
    for (const run of below) {
      lines.push(
        `    - ${sessionName(run)}: ${pct(run.report.staleReclaimedTokens.reads, run.report.staleTokens.reads)} — ` +
          `${fates(run)}; files: ${byFile(run.staleReadsLeft)}`,
      );
    }
  }
  return lines;
}

function inputTarget(runs: readonly BenchRun[]): string[] {
  const lines = ['- **Cumulative input below every baseline that also loses no live content.**'];
  const baselines = ranPolicies(runs).filter((p) => !p.startsWith('high-density'));
  const skipped = notRun(runs, ['high-density']);
  if (skipped !== undefined) return [...lines, `  - ${skipped}.`];
  if (baselines.length === 0) return [...lines, '  - **not run** (needs a baseline policy).'];
  for (const limit of BENCH_LIMITS) {
    const hd = groupFor(runs, 'high-density', limit).totals;
    const lossless = baselines.filter((p) => groupFor(runs, p, limit).totals.liveLostTokens === 0);
    const input = (p: ReplayPolicyId) => groupFor(runs, p, limit).totals.cumulativeInputTokens;
    const beaten = lossless.filter((p) => hd.cumulativeInputTokens < input(p));
    lines.push(
      `  - ${limitName(limit)}, totals: baselines losing no live content over the corpus: ` +
        `${lossless.map((p) => `\`${p}\` (${pct(hd.cumulativeInputTokens, input(p))})`).join(', ') || 'none'}; ` +
        'high-density is below ' +
        `${beaten.length} of ${lossless.length} (${lossless.length === beaten.length ? '**met**' : '**missed**'}).`,
    );
    lines.push(`  - ${limitName(limit)}, per session: ${perSessionInput(runs, limit, baselines)}`);
  }
  return lines;
}

/** Sessions where some baseline that lost no live content on that session sent less. */
function perSessionInput(
  runs: readonly BenchRun[],
  limit: number,
  baselines: readonly ReplayPolicyId[],
): string {
  const at = (run: BenchRun) => isLimitless(run.policy) || run.limit === limit;
  const bySession = new Map<string, BenchRun[]>();
  for (const run of runs.filter(at)) {
    bySession.set(sessionKey(run), [...(bySession.get(sessionKey(run)) ?? []), run]);
  }
  const worse: string[] = [];
  let equal = 0;
  for (const sessionRuns of bySession.values()) {
    const hd = sessionRuns.find((run) => run.policy === 'high-density');
    if (hd === undefined) continue;
    const rivals = sessionRuns.filter(
      (run) => baselines.includes(run.policy) && run.report.liveLostTokens === 0,
    );
    const better = rivals.filter(
      (run) => run.report.cumulativeInputTokens < hd.report.cumulativeInputTokens,
    );
    if (better.length > 0) {
      worse.push(`${sessionName(hd)} (${better.map((r) => `\`${r.policy}\``).join(', ')})`);
    } else if (
      rivals.some((run) => run.report.cumulativeInputTokens === hd.report.cumulativeInputTokens)
    ) {
      equal++;
    }
  }
  return (
    `high-density sends more than a baseline that lost no live file content on that session on ` +
    `${worse.length} of ${bySession.size} sessions` +
    `${worse.length === 0 ? '' : `: ${worse.slice(0, 8).join('; ')}${worse.length > 8 ? '; …' : ''}`}; ` +
    `it ties one (nothing to prune) on ${equal}. (The oracle counts file content only: masking ` +
    'drops old command output, listings and search results, which it does not see as a loss.)'
  );
}

export function targetsSection(runs: readonly BenchRun[]): string {
  return [
    '### Replay: the targets',
    '',
    ...liveLossTarget(runs),
    ...staleReadTarget(runs),
    ...inputTarget(runs),
  ].join('\n');
}
