/**
 * The cache-stable density targets: what high-density's edits cost once prompt caching is
 * priced, per provider (`cachePrefix`), against `none` on the same sessions, with the recorded gaps
 * between calls and with every gap assumed warm; per source, worst sessions first. Pure.
 */
import type { ReplayPolicyId, ReplaySessionReport } from '@dense/core';
import {
  groupFor,
  int,
  isLimitless,
  notRun,
  pct,
  ranPolicies,
  sessionKey,
  sessionName,
} from './benchAggregate.js';
import type { BenchRun } from './benchTypes.js';
import { row, percent } from './markdownTable.js';

const CORPUS_RATIO = 0.9;
const SESSION_RATIO = 1.005;
const INPUT_RATIO = 0.88;
const POLICY: ReplayPolicyId = 'high-density';
type Pricing = 'anthropic' | 'openai';
type Gaps = 'recorded' | 'warm';

function weighted(report: ReplaySessionReport, pricing: Pricing, gaps: Gaps = 'recorded'): number {
  const costs = gaps === 'recorded' ? report.cacheCost : report.cacheCostAssumedWarm;
  return costs[pricing].weightedTokens;
}

interface Pair {
  readonly run: BenchRun;
  readonly none: BenchRun;
}

/** Each session's run of `policy` at `limit`, with its `none` run. */
function pairs(runs: readonly BenchRun[], limit: number, policy = POLICY): Pair[] {
  const none = new Map(
    runs.filter((r) => r.policy === 'none').map((r) => [sessionKey(r), r] as const),
  );
  return runs.flatMap((run) => {
    const base = run.policy === policy && run.limit === limit && none.get(sessionKey(run));
    return base ? [{ run, none: base }] : [];
  });
}

const sum = (list: readonly Pair[], pick: (r: ReplaySessionReport) => number, side: keyof Pair) =>
  list.reduce((s, p) => s + pick(p[side].report), 0);

function ratio(list: readonly Pair[], pick: (r: ReplaySessionReport) => number): number {
  const base = sum(list, pick, 'none');
  return base === 0 ? 1 : sum(list, pick, 'run') / base;
}

const sessionRatio = (p: Pair, pricing: Pricing, gaps: Gaps = 'recorded') =>
  weighted(p.run.report, pricing, gaps) / Math.max(1, weighted(p.none.report, pricing, gaps));

const verdict = (ok: boolean) => (ok ? '**met**' : '**missed**');
const by = (value: number, target: number) =>
  value <= target ? '' : ` (missed by ${(100 * (value - target)).toFixed(1)} points)`;

function worst(list: readonly Pair[], pricing: Pricing, top = 3): string {
  return [...list]
    .sort((a, b) => sessionRatio(b, pricing) - sessionRatio(a, pricing))
    .slice(0, top)
    .map((p) => `${sessionName(p.run)} ${percent(sessionRatio(p, pricing))}`)
    .join(', ');
}

function corpusTargets(list: readonly Pair[]): string[] {
  const anthropic = ratio(list, (r) => weighted(r, 'anthropic'));
  const warm = ratio(list, (r) => weighted(r, 'anthropic', 'warm'));
  const openai = ratio(list, (r) => weighted(r, 'openai'));
  const openaiWarm = ratio(list, (r) => weighted(r, 'openai', 'warm'));
  const input = ratio(list, (r) => r.cumulativeInputTokens);
  const above = list.filter((p) => sessionRatio(p, 'anthropic') > SESSION_RATIO);
  const lost = list.filter((p) => p.run.report.liveLostTokensBy.density > 0);
  return [
    `- 128k, Anthropic 5-minute pricing, cache-weighted cost ≤ ${percent(CORPUS_RATIO)} of none over ` +
      `the corpus: ${verdict(anthropic <= CORPUS_RATIO)} — ${percent(anthropic)}${by(anthropic, CORPUS_RATIO)} ` +
      `with the recorded gaps; ${percent(warm)} with every gap assumed warm. OpenAI pricing beside it: ` +
      `${percent(openai)} (${percent(openaiWarm)} assumed warm).`,
    `- 128k, no session above ${percent(SESSION_RATIO)} of none (Anthropic): ${verdict(above.length === 0)} — ` +
      `${above.length} of ${list.length} sessions above` +
      (above.length === 0 ? '.' : `; worst: ${worst(above, 'anthropic', 5)}.`),
    `- 128k, input ≤ ${percent(INPUT_RATIO)} of none: ${verdict(input <= INPUT_RATIO)} — ` +
      `${percent(input)}${by(input, INPUT_RATIO)}.`,
    `- 128k, live content lost to density 0 on every session: ${verdict(lost.length === 0)} — ` +
      `${lost.length} sessions lose ${int(lost.reduce((s, p) => s + p.run.report.liveLostTokensBy.density, 0))} tokens.`,
  ];
}

/** At 32k: high-density's cost against every policy that loses no live content to density. */
function lowestAt32k(runs: readonly BenchRun[]): string {
  const limit = 32_000;
  const cost = (policy: ReplayPolicyId, pricing: Pricing) =>
    groupFor(runs, policy, limit).totals.cacheCost[pricing].weightedTokens;
  const none = cost('none', 'anthropic');
  const title =
    '- 32k, lowest cache-weighted cost among policies losing no live content to density:';
  if (!ranPolicies(runs).some((p) => !isLimitless(p) && p !== POLICY)) {
    return `${title} **not run** (needs a policy other than \`${POLICY}\` with a context limit).`;
  }
  const lossless = ranPolicies(runs).filter(
    (p) => !isLimitless(p) && groupFor(runs, p, limit).totals.liveLostTokensBy.density === 0,
  );
  if (!lossless.includes(POLICY)) {
    return `${title} **missed** — high-density itself loses live content to density.`;
  }
  const ranked = [...lossless].sort((a, b) => cost(a, 'anthropic') - cost(b, 'anthropic'));
  const best = ranked[0] ?? POLICY;
  const hd = cost(POLICY, 'anthropic');
  const gap = none === 0 ? 0 : (hd - cost(best, 'anthropic')) / none;
  return (
    `- 32k, high-density's cache-weighted cost the lowest among policies losing no live content to ` +
    `density: ${verdict(best === POLICY)} — ${ranked
      .map(
        (p) =>
          `\`${p}\` ${pct(cost(p, 'anthropic'), none)} (OpenAI ${pct(cost(p, 'openai'), cost('none', 'openai'))})`,
      )
      .join(', ')} of none` +
    (best === POLICY
      ? '.'
      : `; high-density trails \`${best}\` by ${(100 * gap).toFixed(1)} points.`)
  );
}

/** What density did to a group of sessions vs none: tokens, cache reads/writes, net per pricing. */
function effectCells(list: readonly Pair[]): string[] {
  const d = (pick: (r: ReplaySessionReport) => number) =>
    sum(list, pick, 'run') - sum(list, pick, 'none');
  const signed = (v: number) => `${v > 0 ? '+' : ''}${int(v)}`;
  return [
    int(0 - d((r) => r.cumulativeInputTokens) || 0),
    signed(d((r) => r.cacheCost.anthropic.cacheReadTokens)),
    signed(d((r) => r.cacheCost.anthropic.cacheWriteTokens)),
    percent(ratio(list, (r) => weighted(r, 'anthropic'))),
    percent(ratio(list, (r) => weighted(r, 'anthropic', 'warm'))),
    percent(ratio(list, (r) => weighted(r, 'openai'))),
  ];
}

function sourceTable(list: readonly Pair[]): string[] {
  const sources = [...new Set(list.map((p) => p.run.source))].sort();
  const lines = [
    row([
      'source',
      'sessions (timed)',
      'cold calls',
      'input saved',
      'Δ cache reads',
      'Δ cache writes',
      'Anthropic, % of none',
      'assumed warm',
      'OpenAI, % of none',
      'worst sessions (Anthropic)',
    ]),
    row(Array.from({ length: 10 }, () => '---')),
  ];
  for (const source of [...sources, 'all']) {
    const part = source === 'all' ? list : list.filter((p) => p.run.source === source);
    const timed = part.filter((p) => p.none.report.timedModelCalls > 0).length;
    const cold = sum(part, (r) => r.cacheCost.anthropic.coldCalls, 'none');
    lines.push(
      row([
        source === 'all' ? '**all**' : source,
        `${part.length} (${timed})`,
        int(cold),
        ...effectCells(part),
        source === 'all' ? '' : worst(part, 'anthropic'),
      ]),
    );
  }
  return lines;
}

export function cacheTargetsSection(runs: readonly BenchRun[]): string {
  const skipped = notRun(runs, [POLICY, 'none']);
  if (skipped !== undefined)
    return `### Replay: cache-stable density\n\n- Every target: ${skipped}.\n`;
  const list = pairs(runs, 128_000);
  if (list.length === 0) return '';
  const none = list.map((p) => p.none.report);
  const calls = none.reduce((s, r) => s + r.modelCalls, 0);
  const timed = none.reduce((s, r) => s + r.timedModelCalls, 0);
  return [
    '### Replay: cache-stable density',
    '',
    `Priced per call with \`cachePrefix\` (packages/core/src/cache): Anthropic 5-minute cache (read 0.1×, ` +
      'write 1.25×, minimum 1,024 tokens, a breakpoint on the newest block of every request plus the ' +
      'cache anchors Dense puts before pending density edits, 20-block lookback) and OpenAI automatic ' +
      'prefix caching (read 0.1× in 128-token steps past 1,024, no write ' +
      'premium). Gaps between calls are the recorded times of the replies (Claude Code, Codex, ' +
      `gemini-cli recordings, OpenHands): ${timed} of ${calls} model calls (${none.filter((r) => r.timedModelCalls > 0).length} of ` +
      `${none.length} sessions) carry one; a gap over the TTL is a cold cache; calls without a time ` +
      'are assumed warm. "Assumed warm" ignores the recorded times. Δ columns: high-density minus none ' +
      '(Anthropic reads/writes, tokens); cold calls: calls of `none` after a gap over 5 minutes.',
    '',
    ...corpusTargets(list),
    lowestAt32k(runs),
    '',
    'Why a target is missed, per session and source, what was tried and the next levers: ' +
      '[high-density.md § Cache-stable density](high-density.md).',
    '',
    '128k, high-density vs none, per source:',
    '',
    ...sourceTable(list),
  ].join('\n');
}
