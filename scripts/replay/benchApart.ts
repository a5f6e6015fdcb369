/**
 * Two sections of the replay bench that sit beside the main tables: the sessions whose agent
 * compacted its own context (reported apart, since replay crosses the compaction with the whole
 * earlier history), and every place where the replay oracle and the strategies' classifiers
 * disagree about a recorded call. Pure.
 */
import { REPLAY_POLICY_IDS } from '@dense/core';
import { groupFor, int, pct, sessionKey, sessionName } from './benchAggregate.js';
import { BENCH_LIMITS, type BenchRun, type SessionCrossCheck } from './benchTypes.js';

/** Rows of the disagreement table shown in the docs (all of them are in the `--json` dump). */
const SHOWN_DISAGREEMENTS = 40;

function row(cells: readonly string[]): string {
  return `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
}

export function selfCompactedSection(runs: readonly BenchRun[]): string {
  const compacted = runs.filter((run) => run.recordedCompactions > 0);
  const title = '### Replay: sessions that compacted themselves (reported apart)';
  const lead =
    'These sessions hold a compaction the recorded agent made itself (a Claude Code compact ' +
    "summary, a gemini-cli `<state_snapshot>`). Replay does not model the agent's reset: it feeds the " +
    'whole pre-compaction history on, so `none` carries context the agent no longer had. They are ' +
    'left out of every other table and reported here.';
  if (compacted.length === 0) return [title, '', `${lead} None in this corpus.`].join('\n');
  const nones = compacted.filter((run) => run.policy === 'none');
  const sessions = nones
    .map(
      (run) =>
        `\`${sessionName(run)}\` (${run.source}: ${run.recordedCompactions} compaction(s), ` +
        `${int(run.report.modelCalls)} calls, peak without context management ${int(run.report.peakContextTokens)})`,
    )
    .join('; ');
  const keys = new Set(nones.map(sessionKey));
  const inSet = (run: BenchRun) => keys.has(sessionKey(run));
  const none = groupFor(compacted, 'none', BENCH_LIMITS[0], inSet).totals;
  const perLimit = ['input % none', 'peak', 'live lost D / C'];
  const lines = [
    row(['policy', ...BENCH_LIMITS.flatMap((l) => perLimit.map((n) => `${l / 1000}k: ${n}`))]),
    row(['---', ...BENCH_LIMITS.flatMap(() => perLimit.map(() => '---:'))]),
  ];
  for (const policy of REPLAY_POLICY_IDS) {
    const cells = BENCH_LIMITS.flatMap((limit) => {
      const t = groupFor(compacted, policy, limit, inSet).totals;
      return [
        pct(t.cumulativeInputTokens, none.cumulativeInputTokens),
        int(t.peakContextTokens),
        `${int(t.liveLostTokensBy.density)} / ${int(t.liveLostTokensBy.compression)}`,
      ];
    });
    lines.push(row([`\`${policy}\``, ...cells]));
  }
  return [title, '', lead, '', `Sessions: ${sessions}.`, '', ...lines].join('\n');
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
  const lines = [
    row(['session', 'call', 'aspect', 'call / text', 'oracle', 'strategy']),
    row(['---', '---', '---', '---', '---', '---']),
    ...all
      .slice(0, SHOWN_DISAGREEMENTS)
      .map((d) => row([d.session, d.at, d.aspect, `\`${d.subject}\``, d.oracle, d.strategy])),
  ];
  const more =
    all.length > SHOWN_DISAGREEMENTS
      ? `\n\nFirst ${SHOWN_DISAGREEMENTS} of ${all.length} shown; \`--json\` holds all (\`crossChecks\`).`
      : '';
  return (
    [title, '', lead, '', `${all.length} disagreements — ${summary}.`, '', ...lines].join('\n') +
    more
  );
}
