/**
 * The window grid of the replay bench (`--limits`): every policy at every context limit, as % of
 * `none` on the same sessions — Anthropic 5-minute cache-weighted cost, cumulative input — with
 * the live file content it lost to density, and which policy that loses none costs least at each
 * limit. Sessions that compacted themselves are left out, as in the main tables. Pure.
 */
import { REPLAY_POLICY_IDS, type ReplayPolicyId } from '@dense/core';
import { int, isLimitless, sessionKey } from './benchAggregate.js';
import type { BenchRun } from './benchTypes.js';
import { percent } from './markdownTable.js';
import { limitLabel } from './benchVsRecorded.js';

interface Cell {
  readonly cost: number;
  readonly input: number;
  readonly liveLostToDensity: number;
}

function cellFor(
  runs: readonly BenchRun[],
  none: ReadonlyMap<string, BenchRun>,
  policy: ReplayPolicyId,
  limit: number,
): Cell | undefined {
  const pairs = runs.flatMap((run) => {
    const base = run.policy === policy && run.limit === limit && none.get(sessionKey(run));
    return base ? [[run, base] as const] : [];
  });
  if (pairs.length === 0) return undefined;
  let cost = 0;
  let costNone = 0;
  let input = 0;
  let inputNone = 0;
  let lost = 0;
  for (const [run, base] of pairs) {
    cost += run.report.cacheCost.anthropic.weightedTokens;
    costNone += base.report.cacheCost.anthropic.weightedTokens;
    input += run.report.cumulativeInputTokens;
    inputNone += base.report.cumulativeInputTokens;
    lost += run.report.liveLostTokensBy.density;
  }
  return {
    cost: costNone === 0 ? 1 : cost / costNone,
    input: inputNone === 0 ? 1 : input / inputNone,
    liveLostToDensity: lost,
  };
}

/** The grid as a markdown table, one row per policy, one column per limit. */
export function gridMarkdown(runs: readonly BenchRun[], limits: readonly number[]): string {
  const own = runs.filter((run) => run.recordedCompactions === 0);
  const none = new Map(
    own.filter((run) => run.policy === 'none').map((run) => [sessionKey(run), run] as const),
  );
  const policies = REPLAY_POLICY_IDS.filter(
    // `none` is the base; `recorded` lifts the limit too, and these sessions never compacted.
    (policy) => !isLimitless(policy) && own.some((run) => run.policy === policy),
  );
  const cells = new Map(
    policies.map((policy) => [policy, limits.map((limit) => cellFor(own, none, policy, limit))]),
  );
  const cheapest = limits.map((_, i) => {
    let best: ReplayPolicyId | undefined;
    for (const policy of policies) {
      const cell = cells.get(policy)?.[i];
      const bestCell = best === undefined ? undefined : cells.get(best)?.[i];
      if (cell === undefined || cell.liveLostToDensity > 0) continue;
      if (bestCell === undefined || cell.cost < bestCell.cost) best = policy;
    }
    return best;
  });
  const header = `| policy | ${limits.map(limitLabel).join(' | ')} |`;
  const rule = `| --- | ${limits.map(() => '---:').join(' | ')} |`;
  const rows = policies.map((policy) => {
    const row = (cells.get(policy) ?? []).map((cell, i) => {
      if (cell === undefined) return '–';
      const text = `${percent(cell.cost)} / ${percent(cell.input)} / ${int(cell.liveLostToDensity)}`;
      return cheapest[i] === policy ? `**${text}**` : text;
    });
    return `| \`${policy}\` | ${row.join(' | ')} |`;
  });
  return [
    `Window grid, ${int(none.size)} session${none.size === 1 ? '' : 's'}: cache-weighted cost (Anthropic 5-minute) / cumulative input, % of \`none\` / live content lost to density (tokens); bold: the cheapest policy that loses no live content to density at that limit.`,
    '',
    header,
    rule,
    ...rows,
  ].join('\n');
}
