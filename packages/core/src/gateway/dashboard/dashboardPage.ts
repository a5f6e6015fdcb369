/**
 * `/dense/dashboard`: one self-contained HTML page from `/dense/stats` JSON (`teamStats`): the
 * scope's headline figures, the cumulative cost plot (`costPlot.ts`) and a row per user. No
 * script, no external resource (its Content-Security-Policy forbids any); every string from the
 * JSON is escaped. A user's page shows that user's figures only; the team's rows are for an admin.
 */
import { costPlot } from './costPlot.js';
import {
  escapeHtml,
  formatAmount,
  formatBucket,
  formatPercent,
  formatSeconds,
  timeFormatter,
} from './dashboardFormat.js';
import type { StatsFigures } from './statsFigures.js';
import type { TeamStatsJson } from './StatsTimeline.js';

export interface DashboardOptions {
  /** The admin view: every user's row and the team's total. Default: one user's page. */
  readonly admin?: boolean;
  readonly title?: string;
  /** IANA time zone of the times shown (default UTC); an unknown zone throws a RangeError. */
  readonly timeZone?: string;
}

/** Team figures handed to a user's page: a caller bug that would show a user the team. */
export class DashboardScopeError extends Error {
  readonly code = 'dashboard-team-stats-in-user-view';
  constructor() {
    super("a user's dashboard needs that user's stats (teamStats(user)), not the team's");
    this.name = 'DashboardScopeError';
  }
}

const STYLE = `
  :root { color-scheme: light; --billed: #2f6fb3; --pass: #d9822b; --ink: #1d2329; --muted: #5f6b76; --line: #dde2e7; }
  body { margin: 0; padding: 24px 32px 40px; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); background: #fbfcfd; }
  h1 { font-size: 22px; margin: 0 0 2px; }
  h2 { font-size: 16px; margin: 28px 0 8px; }
  .sub, .note, .empty { color: var(--muted); }
  .sub { margin: 0 0 20px; }
  .cards { display: grid; grid-template-columns: repeat(auto-fit, minmax(150px, 1fr)); gap: 12px; max-width: 1040px; }
  .card { background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; }
  .card .label { color: var(--muted); font-size: 13px; }
  .card .value { font-size: 22px; font-weight: 600; font-variant-numeric: tabular-nums; }
  .card .detail { color: var(--muted); font-size: 13px; }
  figure { margin: 0; max-width: 1040px; background: #fff; border: 1px solid var(--line); border-radius: 8px; padding: 12px 12px 4px; }
  figcaption { font-size: 13px; color: var(--muted); margin: 0 0 6px 4px; }
  .key { display: inline-block; width: 12px; height: 12px; border-radius: 2px; vertical-align: -1px; margin: 0 4px 0 12px; }
  .key.billed { background: var(--billed); } .key.pass { background: var(--pass); }
  svg.plot { display: block; width: 100%; height: auto; }
  .grid { stroke: var(--line); stroke-width: 1; } .axis { stroke: #9aa5b1; stroke-width: 1; }
  .tick { fill: var(--muted); font-size: 12px; }
  .area.pass { fill: var(--pass); fill-opacity: 0.22; } .area.billed { fill: #cddcee; }
  .line { fill: none; stroke-width: 2; stroke-linejoin: round; }
  .line.pass { stroke: var(--pass); } .line.billed { stroke: var(--billed); }
  table { border-collapse: collapse; background: #fff; border: 1px solid var(--line); min-width: 640px; max-width: 1040px; width: 100%; }
  th, td { padding: 7px 12px; border-bottom: 1px solid var(--line); text-align: right; font-variant-numeric: tabular-nums; }
  th { font-size: 13px; color: var(--muted); font-weight: 600; background: #f3f5f7; }
  th:first-child, td:first-child { text-align: left; overflow-wrap: anywhere; }
  tr.team td { font-weight: 600; background: #f7f9fb; }
  .note { font-size: 13px; max-width: 1040px; margin-top: 18px; }
`;

const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

function card(label: string, value: string, detail?: string): string {
  const more = detail === undefined ? '' : `<div class="detail">${escapeHtml(detail)}</div>`;
  return `<div class="card"><div class="label">${escapeHtml(label)}</div><div class="value">${escapeHtml(value)}</div>${more}</div>`;
}

function cards(figures: StatsFigures): string {
  return [
    '<section class="cards">',
    card('Billed', formatAmount(figures.billedCost)),
    card('Pass-through (est.)', formatAmount(figures.passThroughCost)),
    card('Saved', formatPercent(figures.savedPercent), formatAmount(figures.savedCost)),
    card(
      'Compactions avoided',
      String(figures.compactionsAvoided),
      `${figures.compactionsAnswered} answered, ${figures.compactionsKeptUnder} kept under`,
    ),
    card('Waiting avoided', formatSeconds(figures.waitingAvoidedSeconds)),
    card('Requests', String(figures.requests)),
    '</section>',
  ].join('\n');
}

function row(name: string, figures: StatsFigures, team = false): string {
  const cells = [
    String(figures.requests),
    formatAmount(figures.billedCost),
    formatAmount(figures.passThroughCost),
    formatPercent(figures.savedPercent),
    String(figures.compactionsAvoided),
    `${figures.compactionsAnswered} / ${figures.compactionsKeptUnder}`,
    formatSeconds(figures.waitingAvoidedSeconds),
  ];
  const tds = cells.map((cell) => `<td>${escapeHtml(cell)}</td>`).join('');
  return `<tr${team ? ' class="team"' : ''}><td>${escapeHtml(name)}</td>${tds}</tr>`;
}

function table(json: TeamStatsJson, admin: boolean): string {
  const scope = json.scope;
  const entries =
    admin || scope.kind === 'team'
      ? Object.entries(json.users).sort(([, a], [, b]) => b.billedCost - a.billedCost)
      : Object.entries(json.users).filter(([name]) => name === scope.user);
  const rows = entries.map(([name, figures]) => row(name, figures));
  if (scope.kind === 'team') rows.push(row('Team', json.totals, true));
  const head = [
    'User',
    'Requests',
    'Billed',
    'Pass-through',
    'Saved',
    'Compactions avoided',
    'Answered / kept under',
    'Waiting avoided',
  ];
  return [
    '<table>',
    `<thead><tr>${head.map((h) => `<th scope="col">${h}</th>`).join('')}</tr></thead>`,
    `<tbody>${rows.join('\n')}</tbody>`,
    '</table>',
  ].join('\n');
}

/**
 * The page for `json`. Without `admin` the JSON must be one user's (`teamStats(user)`), else it
 * throws `DashboardScopeError`: the page never shows a user the team's figures.
 */
export function dashboardPage(json: TeamStatsJson, options: DashboardOptions = {}): string {
  const admin = options.admin === true;
  if (!admin && json.scope.kind !== 'user') throw new DashboardScopeError();
  const timeZone = options.timeZone ?? 'UTC';
  const title = options.title ?? 'Dense: team savings';
  const when = timeFormatter(timeZone, true);
  const who = json.scope.kind === 'team' ? 'The team' : json.scope.user;
  const { series } = json;
  const plot = costPlot({ points: series.points, bucketMs: series.bucketMs, timeZone });
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
<p class="sub">${escapeHtml(who)} · all time · updated ${escapeHtml(when(json.generatedAt))} (${escapeHtml(timeZone)})</p>
${cards(json.totals)}
<h2>Prompt cost over time</h2>
<figure>
<figcaption>Cumulative from ${escapeHtml(when(series.points[0]?.start ?? series.from))}, ${escapeHtml(formatBucket(series.bucketMs))} buckets:<span class="key billed"></span>billed<span class="key pass"></span>passed through unchanged (est.)</figcaption>
${plot}
</figure>
<h2>${json.scope.kind === 'team' ? 'Per user' : admin ? 'User' : 'Your figures'}</h2>
${table(json, admin)}
<p class="note">Costs are prompt costs in base input-token units (one uncached input token = 1; cache reads and writes weighted by the provider's price). Pass-through is the estimated cost of the same requests sent unchanged. Waiting avoided counts ${escapeHtml(formatSeconds(json.compactionWaitSeconds))} per client compaction avoided, less Dense's answer time. Context: ${escapeHtml(formatAmount(json.totals.contextUpstreamTokens))} prompt tokens sent upstream for ${escapeHtml(formatAmount(json.totals.contextClientTokens))} held by the clients.</p>
</body>
</html>
`;
}
