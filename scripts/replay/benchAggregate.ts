/** Groups the bench's runs by policy, limit and source, and totals them. Pure. */
import { createHash } from 'node:crypto';
import {
  getReplayPolicy,
  REPLAY_POLICY_IDS,
  totalReplayReports,
  type ReplayPolicyId,
  type ReplayTotals,
} from '@dense/core';
import type { BenchRun } from './benchTypes.js';

export interface Group {
  readonly policy: ReplayPolicyId;
  readonly limit: number | null;
  readonly runs: readonly BenchRun[];
  readonly totals: ReplayTotals;
}

/** Policies that lift the context limit (`none`, `recorded`): the bench runs them once. */
export function isLimitless(policy: ReplayPolicyId): boolean {
  return getReplayPolicy(policy).unlimited === true;
}

/** The runs of one policy at one limit (a limitless policy at any limit: its only runs). */
export function groupFor(
  runs: readonly BenchRun[],
  policy: ReplayPolicyId,
  limit: number,
  filter: (run: BenchRun) => boolean = () => true,
): Group {
  const selected = runs.filter(
    (run) => run.policy === policy && (isLimitless(policy) || run.limit === limit) && filter(run),
  );
  const samples = selected.flatMap((run) => run.overhead.map(([, ms]) => ms));
  return {
    policy,
    limit: isLimitless(policy) ? null : limit,
    runs: selected,
    totals: totalReplayReports(
      selected.map((run) => run.report),
      samples,
    ),
  };
}

/** The policies `runs` holds, in `REPLAY_POLICY_IDS` order: every one unless `--policies` chose. */
export function ranPolicies(runs: readonly BenchRun[]): ReplayPolicyId[] {
  const ran = new Set(runs.map((run) => run.policy));
  return REPLAY_POLICY_IDS.filter((policy) => ran.has(policy));
}

/**
 * The verdict of a figure that needs policies the run left out (`--policies`): `**not run**` and
 * which; undefined when every one of them ran.
 */
export function notRun(
  runs: readonly BenchRun[],
  needed: readonly ReplayPolicyId[],
): string | undefined {
  const ran = new Set(runs.map((run) => run.policy));
  const missing = needed.filter((policy) => !ran.has(policy));
  return missing.length === 0
    ? undefined
    : `**not run** (needs ${missing.map((policy) => `\`${policy}\``).join(', ')})`;
}

/** `part / whole` in percent with one decimal, `–` when `whole` is 0. */
export function pct(part: number, whole: number): string {
  return whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`;
}

export function int(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function stalePct(totals: ReplayTotals, key: 'reads' | 'inclusions' | 'shellReads'): string {
  return pct(totals.staleReclaimedTokens[key], totals.staleTokens[key]);
}

export function allStale(totals: ReplayTotals): { stale: number; reclaimed: number } {
  const s = totals.staleTokens;
  const r = totals.staleReclaimedTokens;
  return {
    stale: s.reads + s.inclusions + s.shellReads,
    reclaimed: r.reads + r.inclusions + r.shellReads,
  };
}

export function exposureTotal(totals: ReplayTotals): number {
  const e = totals.exposureTokens;
  return e.reads + e.inclusions + e.shellReads;
}

/** A session's stable key across policies. */
export function sessionKey(run: BenchRun): string {
  return `${run.report.file}#${run.report.sessionIndex}`;
}

/**
 * A session's name in the docs: its source and a short hash of its file name and index, stable
 * across runs. Transcript file names carry user and project names, which stay out of the
 * repository; `--json` holds the file (`report.file`).
 */
export function sessionName(run: BenchRun): string {
  const base = run.report.file.split('/').pop() ?? run.report.file;
  const key = run.report.sessionIndex === 0 ? base : `${base}#${run.report.sessionIndex}`;
  return `${run.source} ${createHash('sha256').update(key).digest('hex').slice(0, 6)}`;
}

/** Formats whose agents use dedicated read/write tools (the ≥ 0.9 stale-read target applies). */
export function hasDedicatedTools(run: BenchRun): boolean {
  return run.report.format !== 'mini-swe-agent';
}

export function rewritesPer100(totals: ReplayTotals): string {
  return totals.modelCalls === 0
    ? '–'
    : ((100 * totals.historyRewrites) / totals.modelCalls).toFixed(1);
}
