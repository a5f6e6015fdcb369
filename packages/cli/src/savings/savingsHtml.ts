/**
 * `dense savings --report page.html`: one self-contained page (inline CSS and SVG, no scripts, no
 * network): the figures per source, what they mean, the cost of each session without and with
 * Dense as a chart and a table, and the context per model call of the largest session (core's
 * `renderLineChart`, as `dense replay --report` draws it). Pure.
 */
import path from 'node:path';
import { renderLineChart } from '@dense/core';
import { dollars, formatSavingsNotes, SAVINGS_COLUMNS, savingsRows } from './formatSavings.js';
import type { SessionReplays } from './replaySavings.js';
import { sessionFigures, type SavingsFigures, type SavingsSummary } from './savingsFigures.js';
import { SOURCE_LABELS } from './transcriptSources.js';

export interface SavingsHtmlInput {
  readonly sessions: readonly SessionReplays[];
  readonly summary: SavingsSummary;
  /** What was looked at, in words (e.g. `the last 30 days`). */
  readonly period: string;
  readonly notImported: readonly { readonly file: string; readonly reason: string }[];
}

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const int = (n: number): string => Math.round(n).toLocaleString('en-US');

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const cells = (row: readonly string[]) =>
    row.map((c, i) => (i === 0 ? `<th scope="row">${escape(c)}</th>` : `<td>${escape(c)}</td>`));
  return [
    '<table>',
    `<thead><tr>${head.map((h) => `<th>${escape(h)}</th>`).join('')}</tr></thead>`,
    '<tbody>',
    ...rows.map((row) => `<tr>${cells(row).join('')}</tr>`),
    '</tbody>',
    '</table>',
  ].join('\n');
}

const sessionName = (s: SessionReplays): string =>
  `${path.basename(s.file)}${s.sessionIndex === 0 ? '' : `#${s.sessionIndex}`}`;

function summaryTable(summary: SavingsSummary): string {
  return table(SAVINGS_COLUMNS, savingsRows(summary));
}

/** Sessions by their cost without Dense, most expensive first (the chart's x order). */
function byCost(sessions: readonly SessionReplays[]) {
  return sessions
    .map((session) => ({ session, figures: sessionFigures(session) }))
    .sort((a, b) => b.figures.costWithoutUsd - a.figures.costWithoutUsd);
}

function costChart(ranked: ReturnType<typeof byCost>): string {
  const points = (pick: (f: SavingsFigures) => number) =>
    ranked.map((r, i) => [i + 1, pick(r.figures)] as const);
  return `<figure>${renderLineChart({
    title: 'Cost per session, without and with Dense',
    xLabel: 'session (most expensive first, as in the table below)',
    yLabel: 'US dollars',
    series: [
      { name: 'without Dense (as recorded)', points: points((f) => f.costWithoutUsd) },
      { name: 'with Dense', points: points((f) => f.costWithUsd) },
    ],
  })}</figure>`;
}

function sessionTable(ranked: ReturnType<typeof byCost>): string {
  return table(
    [
      '#',
      'session',
      'source',
      'model',
      'without Dense',
      'with Dense',
      'client compactions',
      'Dense compactions',
    ],
    ranked.map(({ session, figures }, i) => [
      String(i + 1),
      sessionName(session),
      SOURCE_LABELS[session.source],
      session.model ?? '–',
      dollars(figures.costWithoutUsd),
      dollars(figures.costWithUsd),
      int(figures.clientCompactions),
      int(figures.denseCompactions),
    ]),
  );
}

/** The session that sent the most input tokens without Dense, its context per call both ways. */
function largestSessionChart(sessions: readonly SessionReplays[]): string {
  const largest = [...sessions].sort(
    (a, b) => b.without.report.cumulativeInputTokens - a.without.report.cumulativeInputTokens,
  )[0];
  if (largest === undefined) return '';
  const line = (series: readonly number[]) => series.map((y, x) => [x + 1, y] as const);
  return `<h2>Context size over time: the largest session</h2>
<p><code>${escape(largest.file)}</code> (${escape(SOURCE_LABELS[largest.source])}), the context each model call was sent. A drop is a compaction: the client's own without Dense, Dense's working budget with it.</p>
<figure>${renderLineChart({
    title: sessionName(largest).slice(0, 70),
    xLabel: 'model call',
    yLabel: 'context tokens',
    series: [
      { name: 'without Dense (as recorded)', points: line(largest.without.series) },
      { name: 'with Dense', points: line(largest.with.series) },
    ],
    guides: [{ y: largest.budget.budget, label: `working budget ${int(largest.budget.budget)}` }],
  })}</figure>`;
}

function notImported(input: SavingsHtmlInput): string {
  if (input.notImported.length === 0) return '';
  const items = input.notImported
    .map((f) => `<li><code>${escape(f.file)}</code>: ${escape(f.reason)}</li>`)
    .join('\n');
  return `<h2>Not imported</h2>\n<p>These files are left out of the figures.</p>\n<ul>\n${items}\n</ul>`;
}

const STYLE = `body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#222;line-height:1.45}
table{border-collapse:collapse;margin:1rem 0;font-size:.92rem}th,td{border:1px solid #ccc;padding:.3rem .6rem;text-align:right}
th[scope=row],thead th{text-align:left;background:#f4f4f4}figure{margin:1.5rem 0}svg{max-width:100%;height:auto}`;

export function renderSavingsHtml(input: SavingsHtmlInput): string {
  const ranked = byCost(input.sessions);
  const notes = formatSavingsNotes(input.summary, input.sessions)
    .split('\n')
    .map((line) => `<li>${escape(line)}</li>`)
    .join('\n');
  const n = input.summary.total.sessions;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>What Dense would have saved</title>
<style>${STYLE}</style>
</head>
<body>
<h1>What Dense would have saved</h1>
<p>${int(n)} of your own agent session${n === 1 ? '' : 's'} (${escape(input.period)}), replayed offline on this machine without and with Dense.</p>
${summaryTable(input.summary)}
<ul>
${notes}
</ul>
<h2>Cost per session</h2>
${costChart(ranked)}
${sessionTable(ranked)}
${largestSessionChart(input.sessions)}
${notImported(input)}
</body>
</html>
`;
}
