/**
 * Two sections of the replay bench that sit beside the main tables: the sessions whose agent
 * compacted its own context, each policy against the agent's own compaction (`recorded`), and every place where the replay oracle and the strategies' classifiers
 * disagree about a recorded call. Pure.
 */
import {
  type ReplayPolicyId,
  type ReplayTotals,
  CLAUDE_CODE_USAGE_MODEL,
  type UsageComparison,
} from '@dense/core';
import { groupFor, int, pct, ranPolicies, sessionKey, sessionName } from './benchAggregate.js';
import { BENCH_LIMITS, type BenchRun, type SessionCrossCheck } from './benchTypes.js';
import { row, percent } from './markdownTable.js';

/** Rows of the disagreement table shown in the docs (all of them are in the `--json` dump). */

/** The policies the per-session table of self-compacted sessions shows. */
const COMPACTED_POLICIES: readonly ReplayPolicyId[] = [
  'recorded',
  'none',
  'middle-out',
  'top-down-truncation',
  'one-shot',
  'high-density',
];

const cost = (t: ReplayTotals) => t.cacheWeightedInputTokens;
const blocked = (t: ReplayTotals) => `${((t.timeBlocked?.totalMs ?? 0) / 1000).toFixed(1)} s`;
/** Grounding: specifics the agent used next that the policy still showed, of all it used. */
const grounded = (t: ReplayTotals) =>
  t.grounding ? pct(t.grounding.visible, t.grounding.specifics) : '–';
const hidden = (t: ReplayTotals) => (t.grounding ? int(t.grounding.hidden) : '–');
const redone = (t: ReplayTotals) => (t.workRedone ? int(t.workRedone.redone) : '–');

function perSessionTable(compacted: readonly BenchRun[]): string[] {
  const limit = BENCH_LIMITS[0];
  const lines = [
    row([
      'session',
      'policy',
      'cost % none',
      'cost % recorded',
      'input % none',
      'compactions',
      'time blocked',
      'live lost C',
      'grounding',
      'hidden',
      'work redone',
    ]),
    row(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  const sessions = new Map<string, BenchRun>();
  for (const run of [...compacted].sort((a, b) => sessionKey(a).localeCompare(sessionKey(b)))) {
    if (!sessions.has(sessionKey(run))) sessions.set(sessionKey(run), run);
  }
  for (const [key, first] of sessions) {
    const of = (policy: ReplayPolicyId) =>
      groupFor(compacted, policy, limit, (run) => sessionKey(run) === key).totals;
    const none = of('none');
    const recorded = of('recorded');
    const ran = new Set(ranPolicies(compacted));
    for (const policy of COMPACTED_POLICIES.filter((p) => ran.has(p))) {
      const t = of(policy);
      lines.push(
        row([
          sessionName(first),
          `\`${policy}\``,
          pct(cost(t), cost(none)),
          pct(cost(t), cost(recorded)),
          pct(t.cumulativeInputTokens, none.cumulativeInputTokens),
          int(t.compressions),
          blocked(t),
          int(t.liveLostTokensBy.compression),
          grounded(t),
          hidden(t),
          redone(t),
        ]),
      );
    }
  }
  return lines;
}

function totalsOverCompacted(compacted: readonly BenchRun[]): string[] {
  const perLimit = [
    'cost % none',
    'cost % recorded',
    'compactions',
    'time blocked',
    'grounding',
    'hidden',
    'work redone',
  ];
  const lines = [
    row(['policy', ...BENCH_LIMITS.flatMap((l) => perLimit.map((n) => `${l / 1000}k: ${n}`))]),
    row(['---', ...BENCH_LIMITS.flatMap(() => perLimit.map(() => '---:'))]),
  ];
  for (const policy of ranPolicies(compacted)) {
    const cells = BENCH_LIMITS.flatMap((limit) => {
      const t = groupFor(compacted, policy, limit).totals;
      const none = groupFor(compacted, 'none', limit).totals;
      const recorded = groupFor(compacted, 'recorded', limit).totals;
      return [
        pct(cost(t), cost(none)),
        pct(cost(t), cost(recorded)),
        int(t.compressions),
        blocked(t),
        grounded(t),
        hidden(t),
        redone(t),
      ];
    });
    lines.push(row([`\`${policy}\``, ...cells]));
  }
  return lines;
}

function usageCells(comparison: UsageComparison | undefined): string[] {
  if (comparison?.kind !== 'compared') return [comparison?.reason ?? '–', '–', '–', '–'];
  return [
    percent(comparison.medianError),
    `${comparison.within5Percent} / ${comparison.checkedCalls}`,
    percent(comparison.ratio),
    comparison.worst
      .map((one) => `${one.call + 1}: ${one.error >= 0 ? '+' : ''}${percent(one.error)}`)
      .join(', '),
  ];
}

/**
 * `recorded` and `none` against the context sizes the agent's provider recorded, predicted as
 * fixed prompt (from call 1) + ratio × replayed + framing per call in context.
 */
function usageTable(compacted: readonly BenchRun[]): string[] {
  const withUsage = compacted.filter((run) => run.recordedUsage !== undefined);
  if (withUsage.length === 0) return ['No self-compacted session records usage.'];
  const lines = [
    row([
      'session',
      'policy',
      'fixed prompt',
      'all calls: median error',
      'calls within 5%',
      'after the first compaction: median error',
      'calls within 5%',
      'Σ predicted / Σ recorded after it',
      'worst calls after it',
    ]),
    row(['---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---']),
  ];
  for (const run of withUsage.sort((a, b) => sessionKey(a).localeCompare(sessionKey(b)))) {
    const all = run.recordedUsage?.all;
    const [medianAll, withinAll] = usageCells(all);
    lines.push(
      row([
        sessionName(run),
        `\`${run.policy}\``,
        all?.kind === 'compared' ? int(Math.round(all.fixedPrompt)) : '–',
        medianAll ?? '–',
        withinAll ?? '–',
        ...usageCells(run.recordedUsage?.after),
      ]),
    );
  }
  return lines;
}

export function selfCompactedSection(runs: readonly BenchRun[]): string {
  const compacted = runs.filter((run) => run.recordedCompactions > 0);
  const title =
    "### Replay: sessions that compacted themselves, against the agent's own compaction";
  const lead =
    'These sessions hold compactions the recorded agent made itself (a Claude Code compact summary, ' +
    'a Codex `compacted` item, a gemini-cli `<state_snapshot>`). They are in every table above. ' +
    '`recorded` replays what the agent had: at each recorded compaction the history becomes the ' +
    'recorded summary, and the summarization call is priced (the context at the boundary as input, ' +
    'the summary at the output price); its time blocked is the recorded wait (last record before the ' +
    'boundary to the summary). Every other policy crosses the boundary with its own context and keeps ' +
    "the summary as the next message (docs/replay.md). Dense's time blocked is its compression as " +
    'measured in the replay (the offline summarizer writes in milliseconds; an LLM summary would not). ' +
    'Cost: Anthropic 5-minute cache pricing, output at 5× input.';
  if (compacted.length === 0) return [title, '', `${lead} None in this corpus.`].join('\n');
  const nones = compacted.filter((run) => run.policy === 'none');
  const sessions = nones
    .map(
      (run) =>
        `${sessionName(run)}: ${run.recordedCompactions} compaction(s), ` +
        `${int(run.report.modelCalls)} calls, peak without context management ${int(run.report.peakContextTokens)}`,
    )
    .join('; ');
  return [
    title,
    '',
    lead,
    '',
    `Sessions: ${sessions}.`,
    '',
    `Per session at ${BENCH_LIMITS[0] / 1000}k (live lost C: live file content lost to compaction, tokens):`,
    '',
    ...perSessionTable(compacted),
    '',
    'Over these sessions, every policy:',
    '',
    ...totalsOverCompacted(compacted),
    '',
    "#### `recorded` against the agent's own token counts",
    '',
    'Claude Code records the prompt tokens of every call. Each call is predicted from what the ' +
      'replay sent: fixed prompt + r × replayed + c × calls in context since the last compaction ' +
      '+ s × characters of the thinking signatures the model keeps in that context. ' +
      'The fixed prompt (system prompt, tool schemas, injected instructions) is measured on call 1; ' +
      'r (Claude tokens per o200k token), c (framing and unrecorded per-turn additions per call) and ' +
      's (tokens per signature character, sent with each kept thinking block but not replayed) ' +
      'are one calibration for Claude Code, measured on the deltas between consecutive calls within ' +
      'a user turn before the first compaction, pooled over these sessions ' +
      `(r = ${CLAUDE_CODE_USAGE_MODEL.tokensPerReplayedToken}, c = ${CLAUDE_CODE_USAGE_MODEL.tokensPerCall}, ` +
      `s = ${CLAUDE_CODE_USAGE_MODEL.tokensPerSignatureChar}), not fitted per session. Thinking blocks are ` +
      'imported (Claude Code sends them back) and counted as the model bills them (Claude models ' +
      'before Opus 4.5 drop the thinking of earlier turns); after a boundary `recorded` holds what Claude Code up ' +
      'to 1.0.77 restores (its five most recent files and its todo list, docs/replay.md). Worst calls: ' +
      'call number and signed error.',
    '',
    ...usageTable(compacted),
  ].join('\n');
}

export function crossCheckSection(crossChecks: readonly SessionCrossCheck[]): string {
  const title = "### Replay: where the oracle and the strategies' classifiers disagree";
  const lead =
    'The oracle (replay/oracle/) classifies every recorded call by its own rules, importing nothing ' +
    "from the strategies' classifiers (`core/compression/`, `shell/`). Each call or text where the two " +
    'disagree: what it showed (reads), what it changed (writes), whether it succeeded, which files a ' +
    'text inlines. Paths resolved against the workspace; "—" = none. The strategy counts a shell read ' +
    'only when the output is nothing but the file, so shell reads are compared only where it claims one.';
  // Verdict-changing aspects first: what was read, whether it succeeded, inlined files; then writes.
  const order = ['reads', 'success', 'inclusions', 'writes'];
  const all = crossChecks
    .flatMap((check) =>
      check.disagreements.map((d) => ({ ...d, source: check.source, session: check.session })),
    )
    .sort((a, b) => order.indexOf(a.aspect) - order.indexOf(b.aspect));
  if (all.length === 0) return [title, '', lead, '', 'No disagreement in this corpus.'].join('\n');
  const counts = new Map<string, number>();
  for (const d of all)
    counts.set(`${d.source} ${d.aspect}`, (counts.get(`${d.source} ${d.aspect}`) ?? 0) + 1);
  const summary = [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, n]) => `${key}: ${n}`)
    .join('; ');
  // Counts only: the calls themselves quote transcript text (paths, commands), which stays out
  // of the repository; `--json` holds every disagreement (`crossChecks`).
  return [
    title,
    '',
    lead,
    '',
    `${all.length} disagreements — ${summary}. Each one, with its call and text: \`--json\` (\`crossChecks\`).`,
  ].join('\n');
}
