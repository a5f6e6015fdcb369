/**
 * `dense replay --report out.html`: one self-contained page — inline CSS and
 * inline SVG, no scripts, no network — comparing context policies over the replayed sessions: a
 * comparison table against `none`, a table per source file, and a context-per-call chart per
 * session (core's `renderLineChart`). Pure: the same runs give the same page.
 */
import { renderLineChart, type ReplaySessionReport } from '@dense/core';

/** One session replayed under one policy: its report and context tokens per model call. */
export interface ReportRun {
  readonly report: ReplaySessionReport;
  readonly series: readonly number[];
}

export interface HtmlReportInput {
  readonly target: string;
  readonly contextLimit: number;
  /** Policies in column order; `none` first. */
  readonly policies: readonly string[];
  /** Per policy, one run per session, sessions in the same order for every policy. */
  readonly runs: Readonly<Record<string, readonly ReportRun[]>>;
  /** Charts drawn at most (one per session). */
  readonly maxCharts?: number;
}

const escape = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const int = (n: number): string => Math.round(n).toLocaleString('en-US');
const pct = (part: number, whole: number): string =>
  whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : '–';

function sessionName(report: ReplaySessionReport): string {
  const base = report.file.split(/[\\/]/).pop() ?? report.file;
  return report.sessionIndex === 0 ? base : `${base}#${report.sessionIndex}`;
}

/** `file` relative to the replayed directory (the file name when a single file was replayed). */
function relativeTo(target: string, file: string): string {
  const prefix = target.endsWith('/') ? target : `${target}/`;
  return file.startsWith(prefix) ? file.slice(prefix.length) : (file.split(/[\\/]/).pop() ?? file);
}

function sum(runs: readonly ReportRun[], pick: (r: ReplaySessionReport) => number): number {
  return runs.reduce((total, run) => total + pick(run.report), 0);
}

function table(head: readonly string[], rows: readonly (readonly string[])[]): string {
  const th = head.map((h) => `<th>${escape(h)}</th>`).join('');
  const body = rows
    .map(
      (row) =>
        `<tr>${row.map((cell, i) => (i === 0 ? `<th scope="row">${escape(cell)}</th>` : `<td>${escape(cell)}</td>`)).join('')}</tr>`,
    )
    .join('\n');
  return `<table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

const cost = (r: ReplaySessionReport): number => r.cacheCost.anthropic.weightedTokens;

/** Total time users waited on compactions, in seconds. */
const blocked = (runs: readonly ReportRun[]): string =>
  `${(sum(runs, (r) => r.timeBlocked?.totalMs ?? 0) / 1000).toFixed(1)} s`;

function comparisonTable(input: HtmlReportInput): string {
  const none = input.runs.none ?? [];
  const noneInput = sum(none, (r) => r.cumulativeInputTokens);
  const noneCost = sum(none, cost);
  const recordedCost = sum(input.runs.recorded ?? [], cost);
  const rows = input.policies.map((policy) => {
    const runs = input.runs[policy] ?? [];
    const sent = sum(runs, (r) => r.cumulativeInputTokens);
    const stale = sum(
      runs,
      (r) => r.staleTokens.reads + r.staleTokens.inclusions + r.staleTokens.shellReads,
    );
    const reclaimed = sum(
      runs,
      (r) =>
        r.staleReclaimedTokens.reads +
        r.staleReclaimedTokens.inclusions +
        r.staleReclaimedTokens.shellReads,
    );
    return [
      policy,
      int(sent),
      pct(sent, noneInput),
      int(Math.max(0, ...runs.map((r) => r.report.peakContextTokens))),
      int(sum(runs, (r) => r.compressions)),
      stale > 0 ? pct(reclaimed, stale) : '–',
      int(sum(runs, (r) => r.liveLostTokens)),
      pct(sum(runs, cost), noneCost),
      pct(sum(runs, cost), recordedCost),
      blocked(runs),
    ];
  });
  return table(
    [
      'policy',
      'input tokens sent',
      '% of none',
      'largest context',
      'compressions',
      'stale file content removed',
      'live file content lost (tokens)',
      'cost with caching, % of none',
      'cost, % of recorded',
      'time blocked by compactions',
    ],
    rows,
  );
}

function sourceTables(input: HtmlReportInput): string {
  const none = input.runs.none ?? [];
  const byFile = new Map<string, number[]>();
  none.forEach((run, index) => {
    const list = byFile.get(run.report.file) ?? [];
    list.push(index);
    byFile.set(run.report.file, list);
  });
  const parts: string[] = [];
  for (const [file, indexes] of byFile) {
    const rows = indexes.flatMap((index) =>
      input.policies.map((policy) => {
        const run = input.runs[policy]?.[index];
        const base = none[index]?.report.cumulativeInputTokens ?? 0;
        if (run === undefined) return [policy, '–', '–', '–', '–'];
        return [
          indexes.length === 1 ? policy : `session ${run.report.sessionIndex + 1} · ${policy}`,
          int(run.report.cumulativeInputTokens),
          pct(run.report.cumulativeInputTokens, base),
          int(run.report.peakContextTokens),
          int(run.report.modelCalls),
        ];
      }),
    );
    parts.push(
      `<h3>${escape(relativeTo(input.target, file))}</h3>\n${table(['policy', 'input tokens sent', '% of none', 'largest context', 'model calls'], rows)}`,
    );
  }
  return parts.join('\n');
}

function groundingTable(input: HtmlReportInput): string {
  const rows = input.policies.map((policy) => {
    const runs = input.runs[policy] ?? [];
    const used = sum(runs, (r) => r.grounding?.specifics ?? 0);
    return [
      policy,
      int(used),
      pct(
        sum(runs, (r) => r.grounding?.visible ?? 0),
        used,
      ),
      int(sum(runs, (r) => r.grounding?.recallable ?? 0)),
      int(sum(runs, (r) => r.grounding?.hidden ?? 0)),
      int(sum(runs, (r) => r.workRedone?.redone ?? 0)),
      int(sum(runs, (r) => r.workRedone?.keptInContext ?? 0)),
    ];
  });
  return table(
    [
      'policy',
      'specifics used next',
      'grounding rate (visible)',
      'recallable',
      'hidden',
      'work redone after compaction',
      're-fetched though kept',
    ],
    rows,
  );
}

/** The first hidden or recallable specifics of each policy, with the session they were used in. */
function groundingExamples(input: HtmlReportInput, perPolicy = 5): string {
  const rows = input.policies.flatMap((policy) =>
    (input.runs[policy] ?? [])
      .flatMap((run) =>
        (run.report.grounding?.examples ?? []).map((example) => [
          policy,
          sessionName(run.report),
          example.kind,
          example.text,
          example.verdict,
        ]),
      )
      .slice(0, perPolicy),
  );
  if (rows.length === 0) return '<p>Every specific used next was visible to every policy.</p>';
  return table(['policy', 'session', 'kind', 'specific', 'verdict'], rows);
}

/** Longest chart title that fits the 800 px chart in bold 16 px type. */
const TITLE_CHARS = 70;

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor((max - 1) / 2);
  return `${text.slice(0, half)}…${text.slice(text.length - (max - 1 - half))}`;
}

function charts(input: HtmlReportInput): string {
  const none = input.runs.none ?? [];
  const shown = none.slice(0, input.maxCharts ?? 30);
  return shown
    .map((run, index) => {
      const svg = renderLineChart({
        title: shorten(sessionName(run.report), TITLE_CHARS),
        xLabel: 'model call',
        yLabel: 'context tokens',
        series: input.policies.map((policy) => ({
          name: policy,
          points: (input.runs[policy]?.[index]?.series ?? []).map((y, x) => [x + 1, y] as const),
        })),
        guides: [{ y: input.contextLimit, label: `limit ${int(input.contextLimit)}` }],
      });
      return `<figure>${svg}</figure>`;
    })
    .join('\n');
}

const STYLE = `body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:2rem auto;max-width:70rem;padding:0 1rem;color:#222;line-height:1.45}
table{border-collapse:collapse;margin:1rem 0;font-size:.92rem}th,td{border:1px solid #ccc;padding:.3rem .6rem;text-align:right}
th[scope=row],thead th{text-align:left;background:#f4f4f4}figure{margin:1.5rem 0}svg{max-width:100%;height:auto}`;

export function renderReplayHtml(input: HtmlReportInput): string {
  const sessions = (input.runs.none ?? []).length;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dense replay report — ${escape(input.target)}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Dense replay report</h1>
<p>${int(sessions)} recorded agent session${sessions === 1 ? '' : 's'} from <code>${escape(input.target)}</code> were replayed offline, call by call, under each context policy below, with a context limit of ${int(input.contextLimit)} tokens. <strong>none</strong> keeps everything and is the baseline: “% of none” is the share of its input tokens a policy sends (lower costs less). <strong>recorded</strong> is what the agent itself did: at each compaction it made, the history becomes its recorded summary, and the summarization call is priced (the context as input, the summary at the output price); “% of recorded” compares each policy with it (cost: Anthropic 5-minute prompt-cache pricing). “Time blocked” is the time users waited on compactions: recorded for the agent's own, measured for Dense's. “Stale file content” is file text that a later write made out of date; “live file content lost” is current file text a policy removed, which the model may then miss.</p>
<h2>Policies compared</h2>
${comparisonTable(input)}
<h2>Grounding: what the agent used next</h2>
<p>For each model call, the file paths, line references, test names, error strings, identifiers and numbers of four or more digits the recorded agent then used (in its text and tool-call arguments) that first appeared in an earlier tool output or user message: <strong>visible</strong> in what the policy sent to that call, <strong>recallable</strong> by a recall id named there, or <strong>hidden</strong>. Work redone: recorded tool calls fetching the same content again across a compaction when the policy no longer had it; “re-fetched though kept”: the policy still had it.</p>
${groundingTable(input)}
${groundingExamples(input)}
<h2>Per source file</h2>
${sourceTables(input)}
<h2>Context per model call</h2>
<p>Each line is one policy; the grey line is the context limit. A drop is a compression or a density edit.</p>
${charts(input)}
</body>
</html>
`;
}
