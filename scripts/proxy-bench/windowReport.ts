/**
 * The proxy bench at a set client window (`--window`): per session the pass-through cost, the
 * proxy's cost as a % of it, the peak prompt on each side and the working budget the proxy
 * applies by default at that window; and the figures over the sessions whose history grows past
 * that budget, against the target of `WINDOW_TARGET_PERCENT` each, with the grounding of each side
 * beside it (groundingReport.ts: aim `GROUNDING_AIM` of the used specifics visible through the
 * proxy, the rest recallable). Pure.
 */
import {
  CLIENT_DEFAULT_WINDOW,
  defaultWorkingBudget,
} from '../../packages/core/src/proxy/budget/workingBudget.js';
import type { ClientApi } from './clientRequests.js';
import {
  groundingOverall,
  reachableRate,
  visibleRate,
  type GroundingOverall,
  type GroundingSides,
} from './groundingReport.js';
import type { SessionReplay } from './sessionReplay.js';
import type { CostRow } from './proxyBenchReport.js';

/** Each session past the budget should cost at most this % of pass-through. */
export const WINDOW_TARGET_PERCENT = 85;
/** Share of the used specifics the proxy side should show; the rest should be recallable. */
export const GROUNDING_AIM = 0.97;

export interface WindowRow extends CostRow {
  /** Largest prompt (tokens) billed on each side. */
  readonly passThroughPeak: number;
  readonly proxyPeak: number;
  /** The proxy's default working budget for the session's model at the window; undefined: none. */
  readonly budget: number | undefined;
  /** Whether the pass-through history grew past the budget. */
  readonly pastBudget: boolean;
  /**
   * The lowest % of pass-through a compaction made once the prompt passes the budget can reach:
   * the share of pass-through cost billed before the first call whose prompt passed it (those
   * calls are the same on both sides but for density; an early compaction, made from 85% of the
   * budget, can go below); 100 when it never did.
   */
  readonly floorPercent: number;
  /** Requests the working budget compacted upstream. */
  readonly budgetCompactions: number;
  /** Client compactions on each side (none unless a side passed the window's threshold). */
  readonly clientCompactions: { readonly passThrough: number; readonly proxy: number };
  /** What each side showed of the specifics the agent used next. */
  readonly grounding: GroundingSides;
}

/**
 * The working budget `dense proxy` applies by default to this client at `window`: the one derived
 * for the request's model and client (Claude Code's requests carry the `context-1m` beta above
 * 200k; Codex's window is its model's, whatever the replayed window).
 */
export function windowBudget(api: ClientApi, model: string, window: number): number {
  return defaultWorkingBudget({
    model,
    longContext: api === 'anthropic' && window > CLIENT_DEFAULT_WINDOW,
    client: api === 'anthropic' ? 'claude-code' : 'codex',
  });
}

/** % of the cost billed before the first bill whose prompt passed `budget`. */
export function floorPercent(
  bills: SessionReplay['bills']['passThrough'],
  budget: number | undefined,
): number {
  const total = bills.reduce((sum, bill) => sum + bill.weighted, 0);
  const crossing = bills.findIndex((bill) => budget !== undefined && bill.promptTokens > budget);
  if (crossing === -1 || total <= 0) return 100;
  const before = bills.slice(0, crossing).reduce((sum, bill) => sum + bill.weighted, 0);
  return (100 * before) / total;
}

const peak = (bills: SessionReplay['bills']['proxy']): number =>
  bills.reduce((max, bill) => Math.max(max, bill.promptTokens), 0);

export function windowRow(input: {
  readonly file: string;
  readonly source: string;
  readonly window: number;
  readonly replay: SessionReplay;
  /** The budget the proxy was given instead of its default. */
  readonly workingBudget?: number | 'off' | undefined;
}): WindowRow {
  const { replay, workingBudget } = input;
  const budget =
    workingBudget === 'off'
      ? undefined
      : (workingBudget ?? windowBudget(replay.api, replay.model, input.window));
  const passThroughPeak = peak(replay.bills.passThrough);
  const pass = replay.passThrough.cost;
  return {
    file: input.file,
    source: input.source,
    model: replay.model,
    calls: replay.calls,
    passThroughCost: pass,
    proxyCost: replay.proxy.cost,
    percent: pass > 0 ? (100 * replay.proxy.cost) / pass : 100,
    passThroughPeak,
    proxyPeak: peak(replay.bills.proxy),
    budget,
    pastBudget: budget !== undefined && passThroughPeak > budget,
    floorPercent: floorPercent(replay.bills.passThrough, budget),
    budgetCompactions: replay.records.filter((record) => record.compaction?.kind === 'compacted')
      .length,
    clientCompactions: {
      passThrough: replay.compactions.passThrough.client,
      proxy: replay.compactions.proxy.client,
    },
    grounding: replay.grounding,
  };
}

export interface WindowOverall {
  readonly window: number;
  readonly sessions: number;
  readonly percent: number;
  /** The sessions whose history grew past the budget. */
  readonly pastBudget: {
    readonly sessions: number;
    readonly passThroughCost: number;
    readonly proxyCost: number;
    readonly percent: number;
    readonly highestPercent: number;
    /** Those above `WINDOW_TARGET_PERCENT`. */
    readonly overTarget: readonly string[];
    /** Their grounding, summed. */
    readonly grounding: GroundingOverall;
    /** Those whose proxy side shows less than `GROUNDING_AIM` of the used specifics. */
    readonly belowGroundingAim: readonly string[];
  };
  readonly clientCompactions: { readonly passThrough: number; readonly proxy: number };
}

const share = (part: number, whole: number): number => (whole > 0 ? (100 * part) / whole : 100);

export function windowOverall(window: number, rows: readonly WindowRow[]): WindowOverall {
  const sum = (list: readonly WindowRow[], key: 'passThroughCost' | 'proxyCost') =>
    list.reduce((total, row) => total + row[key], 0);
  const past = rows.filter((row) => row.pastBudget);
  return {
    window,
    sessions: rows.length,
    percent: share(sum(rows, 'proxyCost'), sum(rows, 'passThroughCost')),
    pastBudget: {
      sessions: past.length,
      passThroughCost: sum(past, 'passThroughCost'),
      proxyCost: sum(past, 'proxyCost'),
      percent: share(sum(past, 'proxyCost'), sum(past, 'passThroughCost')),
      highestPercent: past.reduce((max, row) => Math.max(max, row.percent), 0),
      overTarget: past.filter((row) => row.percent > WINDOW_TARGET_PERCENT).map((row) => row.file),
      grounding: groundingOverall(past),
      belowGroundingAim: past
        .filter((row) => visibleRate(row.grounding.proxy) < GROUNDING_AIM)
        .map((row) => row.file),
    },
    clientCompactions: {
      passThrough: rows.reduce((total, row) => total + row.clientCompactions.passThrough, 0),
      proxy: rows.reduce((total, row) => total + row.clientCompactions.proxy, 0),
    },
  };
}

const k = (tokens: number): string => `${(tokens / 1000).toFixed(1)}k`;
const rate = (value: number): string => `${(100 * value).toFixed(1)}%`;
const groundingCells = (sides: GroundingSides): string =>
  `${rate(visibleRate(sides.passThrough))} / ${rate(visibleRate(sides.proxy))} | ${rate(reachableRate(sides.proxy))}`;

export function windowTable(rows: readonly WindowRow[], total: WindowOverall): string {
  const lines = [
    `| session | model | calls | pass-through | proxy % | floor % | peak prompt (pass / proxy) | budget | past budget | budget compactions | visible (pass / proxy) | visible or recallable (proxy) |`,
    '| --- | --- | --: | --: | --: | --: | --: | --: | :-: | --: | --: | --: |',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.file} | ${row.model} | ${row.calls} | ${k(row.passThroughCost)} | ${row.percent.toFixed(1)}% | ${row.floorPercent.toFixed(1)}% | ${k(row.passThroughPeak)} / ${k(row.proxyPeak)} | ${row.budget === undefined ? '–' : k(row.budget)} | ${row.pastBudget ? 'yes' : ''} | ${row.budgetCompactions} | ${groundingCells(row.grounding)} |`,
    );
  }
  const past = total.pastBudget;
  lines.push(
    '',
    `window ${total.window.toLocaleString('en')} tokens: ${total.percent.toFixed(1)}% of pass-through over ${total.sessions} sessions; ` +
      `${past.percent.toFixed(1)}% over the ${past.sessions} session(s) past the budget (highest ${past.highestPercent.toFixed(1)}%, ` +
      `${past.overTarget.length} above ${WINDOW_TARGET_PERCENT}%${past.overTarget.length > 0 ? `: ${past.overTarget.join(', ')}` : ''}); ` +
      `grounding past the budget ${groundingCells(past.grounding).replace(' | ', ' visible, ')} visible or recallable through the proxy, ` +
      `${past.belowGroundingAim.length} session(s) under ${rate(GROUNDING_AIM)} visible; ` +
      `client compactions ${total.clientCompactions.passThrough} pass-through / ${total.clientCompactions.proxy} proxy`,
  );
  return lines.join('\n');
}
