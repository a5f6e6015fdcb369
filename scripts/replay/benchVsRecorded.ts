/**
 * High-density against `none` and `recorded` at each context limit of a `--limits` run: overall, per source and per session — every session, the self-compacted ones included
 * (the window grid leaves those out). `recorded` is what the agent itself did: its own compactions
 * where it made some, otherwise the same as `none`; both lift the limit and run once. Sessions
 * above 100.5% of `none` and self-compacted sessions above 95% of `recorded` are counted and
 * marked. Cost: Anthropic 5-minute cache-weighted input (the summarization calls included). Pure.
 */
import type { ReplayPolicyId } from '@dense/core';
import { int, pct, sessionKey, sessionName } from './benchAggregate.js';
import type { BenchRun } from './benchTypes.js';
import { row } from './markdownTable.js';

/** A session above this share of `none` costs more than no context management at all. */
export const ABOVE_NONE = 1.005;
/** A self-compacted session above this share of `recorded` loses to the agent's own compaction. */
export const ABOVE_RECORDED = 0.95;

const POLICY: ReplayPolicyId = 'high-density';

/** `128k`, `1M`: a context limit as the command line spells it. */
export function limitLabel(limit: number): string {
  if (limit % 1_000_000 === 0) return `${limit / 1_000_000}M`;
  if (limit % 1000 === 0) return `${limit / 1000}k`;
  return int(limit);
}

const costOf = (run: BenchRun) => run.report.cacheCost.anthropic.weightedTokens;

interface SessionCosts {
  readonly name: string;
  readonly source: string;
  readonly compactions: number;
  readonly calls: number;
  readonly none: number;
  readonly recorded: number;
  /** High-density's cost per limit (undefined: not run there). */
  readonly policy: ReadonlyMap<number, number>;
}

/** Every session that ran `none`, `recorded` and high-density, by session key. */
function sessionCosts(runs: readonly BenchRun[]): SessionCosts[] {
  const bySession = new Map<string, BenchRun[]>();
  for (const run of runs) {
    const key = sessionKey(run);
    bySession.set(key, [...(bySession.get(key) ?? []), run]);
  }
  const sessions: SessionCosts[] = [];
  for (const group of bySession.values()) {
    const none = group.find((run) => run.policy === 'none');
    const recorded = group.find((run) => run.policy === 'recorded');
    const policy = new Map<number, number>();
    for (const run of group) {
      if (run.policy === POLICY && run.limit !== null) policy.set(run.limit, costOf(run));
    }
    if (none === undefined || recorded === undefined || policy.size === 0) continue;
    sessions.push({
      name: sessionName(none),
      source: none.source,
      compactions: none.recordedCompactions,
      calls: none.report.modelCalls,
      none: costOf(none),
      recorded: costOf(recorded),
      policy,
    });
  }
  return sessions.sort((a, b) => a.name.localeCompare(b.name));
}

interface Ratio {
  readonly ofNone: string;
  readonly ofRecorded: string;
}

function ratio(sessions: readonly SessionCosts[], limit: number): Ratio {
  let cost = 0;
  let none = 0;
  let recorded = 0;
  for (const session of sessions) {
    const own = session.policy.get(limit);
    if (own === undefined) continue;
    cost += own;
    none += session.none;
    recorded += session.recorded;
  }
  return { ofNone: pct(cost, none), ofRecorded: pct(cost, recorded) };
}

function totalsTable(
  groups: readonly (readonly [string, readonly SessionCosts[]])[],
  limits: readonly number[],
): string[] {
  const lines = [
    row([
      'sessions',
      'n',
      ...limits.flatMap((l) => [`${limitLabel(l)}: % none`, `${limitLabel(l)}: % recorded`]),
    ]),
    row(['---', '---:', ...limits.flatMap(() => ['---:', '---:'])]),
  ];
  for (const [label, sessions] of groups) {
    if (sessions.length === 0) continue;
    const cells = limits.flatMap((limit) => {
      const r = ratio(sessions, limit);
      return [r.ofNone, r.ofRecorded];
    });
    lines.push(row([label, int(sessions.length), ...cells]));
  }
  return lines;
}

/** Sessions over a line at each limit, and which (by name). */
function outliers(
  sessions: readonly SessionCosts[],
  limits: readonly number[],
  base: (session: SessionCosts) => number,
  line: number,
): string[] {
  return limits.map((limit) => {
    const over = sessions.filter((session) => {
      const own = session.policy.get(limit);
      return own !== undefined && base(session) > 0 && own / base(session) > line;
    });
    const names = over.map((s) => `${s.name} (${pct(s.policy.get(limit) ?? 0, base(s))})`);
    return `- ${limitLabel(limit)}: ${over.length}${names.length === 0 ? '' : ` — ${names.join(', ')}`}`;
  });
}

function perSessionTable(sessions: readonly SessionCosts[], limits: readonly number[]): string[] {
  const lines = [
    row([
      'session',
      'own compactions',
      'calls',
      '`recorded` % none',
      ...limits.flatMap((l) => [`${limitLabel(l)}: % none`, `${limitLabel(l)}: % recorded`]),
    ]),
    row(['---', '---:', '---:', '---:', ...limits.flatMap(() => ['---:', '---:'])]),
  ];
  for (const session of sessions) {
    const cells = limits.flatMap((limit) => {
      const own = session.policy.get(limit);
      if (own === undefined) return ['–', '–'];
      const ofNone = pct(own, session.none);
      const ofRecorded = pct(own, session.recorded);
      const overNone = session.none > 0 && own / session.none > ABOVE_NONE;
      const overRecorded =
        session.compactions > 0 && session.recorded > 0 && own / session.recorded > ABOVE_RECORDED;
      return [overNone ? `**${ofNone}**` : ofNone, overRecorded ? `**${ofRecorded}**` : ofRecorded];
    });
    lines.push(
      row([
        session.name,
        int(session.compactions),
        int(session.calls),
        pct(session.recorded, session.none),
        ...cells,
      ]),
    );
  }
  return lines;
}

/** The section, or a line saying why there is none (a `--policies` run without the three). */
export function vsRecordedMarkdown(runs: readonly BenchRun[], limits: readonly number[]): string {
  const title = `High-density against \`none\` and \`recorded\`, per limit`;
  const sessions = sessionCosts(runs);
  if (sessions.length === 0) {
    return `${title}: not run (needs \`none\`, \`recorded\` and \`${POLICY}\`).`;
  }
  const compacted = sessions.filter((s) => s.compactions > 0);
  const sources = [...new Set(sessions.map((s) => s.source))].sort();
  const groups: (readonly [string, readonly SessionCosts[]])[] = [
    ['all', sessions],
    ['self-compacted', compacted],
    ['not self-compacted', sessions.filter((s) => s.compactions === 0)],
    ...sources.map((source) => [source, sessions.filter((s) => s.source === source)] as const),
  ];
  return [
    `${title} (Anthropic 5-minute cache-weighted cost of \`${POLICY}\` as % of each session's \`none\` and \`recorded\`; every session, the self-compacted ones included):`,
    '',
    ...totalsTable(groups, limits),
    '',
    `Sessions above ${pct(ABOVE_NONE, 1)} of \`none\`:`,
    ...outliers(sessions, limits, (s) => s.none, ABOVE_NONE),
    '',
    `Self-compacted sessions above ${pct(ABOVE_RECORDED, 1)} of \`recorded\`:`,
    ...outliers(compacted, limits, (s) => s.recorded, ABOVE_RECORDED),
    '',
    `Per session (bold: above ${pct(ABOVE_NONE, 1)} of \`none\`, or self-compacted and above ${pct(ABOVE_RECORDED, 1)} of \`recorded\`):`,
    '',
    ...perSessionTable(sessions, limits),
  ].join('\n');
}
