/**
 * The replay sections of docs/benchmarks.md, rendered from the bench's runs: how the run was made,
 * totals per context limit, a table per corpus source, the targets, the comparison with the peer
 * figures of prior-art §D, and density overhead by history size. Pure.
 */
import { bucketOverhead, REPLAY_POLICY_IDS, type OverheadSample } from '@dense/core';
import {
  exposureTotal,
  groupFor,
  int,
  pct,
  ranPolicies,
  rewritesPer100,
  stalePct,
  type Group,
} from './benchAggregate.js';
import { BENCH_LIMITS, type BenchRun, type SessionCrossCheck } from './benchTypes.js';
import { crossCheckSection, selfCompactedSection } from './benchApart.js';
import { compareWithPriorArt } from './benchCompare.js';
import { targetsSection } from './benchTargets.js';
import { cacheTargetsSection } from './benchCacheTargets.js';
import { losslessTable } from './benchLossless.js';
import { groundingSection } from './benchGrounding.js';
import { intentSection } from './benchIntent.js';
import { row } from './markdownTable.js';

export const REPLAY_START = '<!-- replay-bench:start -->';
export const REPLAY_END = '<!-- replay-bench:end -->';

export interface BenchMeta {
  readonly date: string;
  readonly machine: string;
  readonly wallMs: number;
  readonly workers: number;
  readonly files: number;
  readonly failures: readonly string[];
  /** Client compaction-call sessions left out (`agent-acompact-*`: part of their parent session). */
  readonly compactionCalls?: number;
}

/** `document` with its replay sections replaced (or appended when it has none yet). */
export function replaceReplaySections(document: string, sections: string): string {
  const block = `${REPLAY_START}\n${sections.trim()}\n${REPLAY_END}`;
  const start = document.indexOf(REPLAY_START);
  const end = document.indexOf(REPLAY_END);
  if (start === -1 || end < start) return `${document.trimEnd()}\n\n${block}\n`;
  return `${document.slice(0, start)}${block}${document.slice(end + REPLAY_END.length)}`;
}

const limitName = (limit: number) => `${limit / 1000}k`;

function totalsTable(runs: readonly BenchRun[], limit: number): string {
  const none = groupFor(runs, 'none', limit).totals;
  const recorded = groupFor(runs, 'recorded', limit).totals;
  const header = row([
    'policy',
    'cumulative input',
    '% of none',
    'cache-weighted, % of none',
    "% of recorded (the agent's own compaction)",
    'time blocked by compactions',
    'peak',
    'compressions (sessions)',
    'stale reclaimed: reads',
    '@ incl.',
    'shell reads',
    'live lost: density',
    'live lost: compression',
    'duplicates reclaimed',
    'rewrites / 100 calls',
    'mean rewrite depth',
    'density ms median / p99',
    'overflow calls',
  ]);
  const lines = [header, row(Array.from({ length: 18 }, (_, i) => (i === 0 ? '---' : '---:')))];
  for (const policy of ranPolicies(runs)) {
    const t = groupFor(runs, policy, limit).totals;
    const exposures = exposureTotal(t);
    lines.push(
      row([
        `\`${policy}\``,
        int(t.cumulativeInputTokens),
        pct(t.cumulativeInputTokens, none.cumulativeInputTokens),
        pct(t.cacheWeightedInputTokens, none.cacheWeightedInputTokens),
        pct(t.cacheWeightedInputTokens, recorded.cacheWeightedInputTokens),
        `${((t.timeBlocked?.totalMs ?? 0) / 1000).toFixed(1)} s`,
        int(t.peakContextTokens),
        `${int(t.compressions)} (${t.sessionsCompressed})`,
        stalePct(t, 'reads'),
        stalePct(t, 'inclusions'),
        stalePct(t, 'shellReads'),
        `${int(t.liveLostTokensBy.density)} (${pct(t.liveLostTokensBy.density, exposures)})`,
        `${int(t.liveLostTokensBy.compression)} (${pct(t.liveLostTokensBy.compression, exposures)})`,
        int(t.duplicateReclaimedTokens),
        rewritesPer100(t),
        `${t.historyRewriteDepth.meanEntries.toFixed(0)} entries / ${int(t.historyRewriteDepth.meanTokens)} tok`,
        t.densityOverheadMs.samples === 0
          ? '–'
          : `${t.densityOverheadMs.median.toFixed(2)} / ${t.densityOverheadMs.p99.toFixed(2)}`,
        int(t.overflowCalls),
      ]),
    );
  }
  return lines.join('\n');
}

function sourceTable(runs: readonly BenchRun[], source: string): string {
  const inSource = (run: BenchRun) => run.source === source;
  const none = groupFor(runs, 'none', BENCH_LIMITS[0], inSource).totals;
  const cells = (g: Group) => [
    pct(g.totals.cumulativeInputTokens, none.cumulativeInputTokens),
    pct(g.totals.cacheWeightedInputTokens, none.cacheWeightedInputTokens),
    stalePct(g.totals, 'reads'),
    `${int(g.totals.liveLostTokensBy.density)} / ${int(g.totals.liveLostTokensBy.compression)}`,
    int(g.totals.compressions),
  ];
  const perLimit = ['input % none', 'cache % none', 'stale reads', 'live lost D / C', 'compr.'];
  const header = row([
    'policy',
    ...BENCH_LIMITS.flatMap((limit) => perLimit.map((name) => `${limitName(limit)}: ${name}`)),
  ]);
  const lines = [header, row(['---', ...BENCH_LIMITS.flatMap(() => perLimit.map(() => '---:'))])];
  for (const policy of ranPolicies(runs)) {
    lines.push(
      row([
        `\`${policy}\``,
        ...BENCH_LIMITS.flatMap((limit) => cells(groupFor(runs, policy, limit, inSource))),
      ]),
    );
  }
  const n = none.sessions;
  const stale = none.staleTokens;
  return [
    `#### ${source} — ${n} session${n === 1 ? '' : 's'}, ${int(none.modelCalls)} model calls, ` +
      `${int(none.cumulativeInputTokens)} cumulative input tokens without context management; ` +
      `stale content: ${int(stale.reads)} read, ${int(stale.inclusions)} included, ${int(stale.shellReads)} shell-read tokens`,
    '',
    ...lines,
  ].join('\n');
}

function overheadTable(runs: readonly BenchRun[]): string {
  const policies = ranPolicies(runs).filter((p) => p.startsWith('high-density'));
  const samples = (policy: string, optimizeOnly: boolean): OverheadSample[] =>
    runs
      .filter((run) => run.policy === policy)
      .flatMap((run) =>
        run.overhead.map(([historyTokens, ms, optimizeMs]) => ({
          historyTokens,
          entries: 0,
          ms: optimizeOnly ? optimizeMs : ms,
        })),
      );
  const buckets = bucketOverhead([]);
  const header = row([
    'policy',
    ...buckets.map(
      (b) => `${int(b.fromTokens)}–${b.toTokens === null ? '' : int(b.toTokens)} tokens`,
    ),
  ]);
  const lines = [header, row(['---', ...buckets.map(() => '---:')])];
  for (const optimizeOnly of [false, true]) {
    for (const policy of policies) {
      const cells = bucketOverhead(samples(policy, optimizeOnly)).map((b) =>
        b.samples === 0
          ? '–'
          : `${b.medianMs.toFixed(2)} / ${b.p99Ms.toFixed(2)} ms (${int(b.samples)})`,
      );
      lines.push(row([`\`${policy}\`${optimizeOnly ? ': optimize() alone' : ''}`, ...cells]));
    }
  }
  return lines.join('\n');
}

/** How many policies ran, naming them when `--policies` left some out. */
function policiesRun(runs: readonly BenchRun[]): string {
  const ran = ranPolicies(runs);
  const total = REPLAY_POLICY_IDS.length;
  return ran.length === total
    ? `${total} policies`
    : `${ran.length} of ${total} policies (\`--policies ${ran.join(',')}\`)`;
}

function header(runs: readonly BenchRun[], meta: BenchMeta): string {
  const none = groupFor(runs, 'none', BENCH_LIMITS[0]).totals;
  const cpuSeconds = runs.reduce((sum, run) => sum + run.wallMs, 0) / 1000;
  const failed = meta.failures.length === 0 ? 'none' : meta.failures.join(', ');
  return [
    '## Replay: real sessions through the pipeline, against peer policies',
    '',
    `\`npm run bench:replay\` (scripts/bench-replay.ts) — ${meta.date}, ${meta.machine}.`,
    `${meta.files} corpus files, ${none.sessions} sessions, ${int(none.modelCalls)} model calls and ` +
      `${int(none.toolCalls)} tool calls each replayed under ${policiesRun(runs)} ` +
      `(${runs.length} replays) in **${(meta.wallMs / 1000).toFixed(1)} s** wall time on ` +
      `${meta.workers} worker processes (${cpuSeconds.toFixed(1)} s summed over replays). Failed files: ${failed}.` +
      ((meta.compactionCalls ?? 0) > 0
        ? ` Skipped ${meta.compactionCalls} client compaction call(s): the conversation a client sent to be summarized, part of its parent session.`
        : ''),
    '',
    'Each session goes turn by turn through a real `AgentSession` (pre-send step, density, compression); ' +
      'the model serves the recorded AI entries, the tools the recorded responses. Tokens are o200k. ' +
      '`none` lifts the context limit (no density, no compression): the reference for "% of none". ' +
      "`recorded` is the agent's own compaction (no limit; at each compaction the agent recorded, the " +
      'history becomes its summary, the summarization call priced): the reference for "% of recorded". ' +
      "LLM strategies and the peer baselines' fallback compression (middle-out) use the **offline " +
      'summarizer** (deterministic, no LLM: first line of each user message, each tool call). ' +
      '"Stale", "live" and "duplicate" are the oracle\'s verdicts (docs/replay.md); "live lost" is file ' +
      'content neither stale nor superseded that a policy removed, in tokens (and % of all file content ' +
      "that entered the context). Cache-weighted: Anthropic 5-minute pricing via `cachePrefix`: each call's " +
      'prefix unchanged since the previous call at 0.1×, the rest written at 1.25×, prompts under ' +
      '1,024 tokens uncached, a recorded gap over 5 minutes cold (see the cache-stable density section).',
  ].join('\n');
}

export function replayMarkdown(
  allRuns: readonly BenchRun[],
  meta: BenchMeta,
  crossChecks: readonly SessionCrossCheck[] = [],
): string {
  // Every session is in every table; selfCompactedSection details those that compacted themselves.
  const runs = allRuns;
  const sources = [...new Set(runs.map((run) => run.source))].sort();
  return [
    header(runs, meta),
    '',
    ...BENCH_LIMITS.flatMap((limit) => [
      `### Replay totals at a ${limitName(limit)} context limit (all sources)`,
      '',
      totalsTable(runs, limit),
      '',
    ]),
    '### Replay per corpus source',
    '',
    'Cumulative input and cache-weighted cost as % of `none` for the same sessions; stale reads: share of ' +
      'stale read-tool content removed while stale; live lost: tokens lost by density (D) and by compression (C).',
    '',
    ...sources.flatMap((source) => [sourceTable(runs, source), '']),
    targetsSection(runs),
    '',
    cacheTargetsSection(runs),
    losslessTable(runs),
    '',
    compareWithPriorArt(runs),
    '',
    '### Replay: density overhead per pre-send step by history size',
    '',
    'Time of `optimize()` plus applying its edits (token recount of replaced entries included), per ' +
      'pre-send step, pooled over all sessions and both limits; then `optimize()` alone. Median / p99 ' +
      "(samples), by the history's size in tokens at that step. Measured inside the bench, two replays " +
      'running in parallel on the two cores, so p99 includes garbage collection and scheduling noise.',
    '',
    overheadTable(runs),
    '',
    selfCompactedSection(allRuns),
    '',
    groundingSection(allRuns),
    intentSection(allRuns),
    crossCheckSection(crossChecks),
    '',
    '### Replay: context per model call',
    '',
    '![Context tokens per model call, longest session, 128k](replay-context.svg)',
    '',
    '![Context tokens per model call, longest session, 32k](replay-context-32k.svg)',
  ].join('\n');
}
