/**
 * The proxy bench's intent figures: per session, per corpus source and overall, for the
 * pass-through side (what the client's own compaction left it, its summary included) and the
 * proxy side, the share of earlier user messages each model call's request showed verbatim, cut
 * (a long paste's head and tail) or lost, and the calls where none was lost; of the calls made
 * while the client held a task list, or after a failure, those that showed the whole list, or
 * the latest failure. Sessions are named by
 * source and a short hash of their file name (`sessionLabel`): transcript file names carry user
 * and project names. Pure.
 */
import { createHash } from 'node:crypto';
import { sumIntent } from '../../packages/core/src/replay/intent/IntentOracle.js';
import type { SideIntentReport } from './SideIntent.js';

export interface IntentSides {
  readonly passThrough: SideIntentReport;
  readonly proxy: SideIntentReport;
}

/** What the intent report reads of a session row. */
export interface IntentRow {
  readonly file: string;
  readonly source: string;
  readonly intent: IntentSides;
}

export interface SourceIntent extends IntentSides {
  readonly source: string;
  readonly sessions: number;
}

export interface IntentOverall extends IntentSides {
  readonly bySource: readonly SourceIntent[];
  /** Sessions (labels) whose proxy side showed a smaller share verbatim than pass-through. */
  readonly belowPassThrough: readonly string[];
}

/**
 * A session's name in the output: its source and a short hash of its file name (with `#index`
 * for the later sessions of a file), as `bench:replay` names them in the docs.
 */
export function sessionLabel(file: string, source: string): string {
  const key = file.replace(/#0$/, '');
  return `${source} ${createHash('sha256').update(key).digest('hex').slice(0, 6)}`;
}

function summed(reports: readonly SideIntentReport[]): SideIntentReport {
  return {
    ...sumIntent(reports),
    callsOnSyntheticSummary: reports.reduce((sum, r) => sum + r.callsOnSyntheticSummary, 0),
  };
}

function sides(rows: readonly IntentRow[]): IntentSides {
  return {
    passThrough: summed(rows.map((row) => row.intent.passThrough)),
    proxy: summed(rows.map((row) => row.intent.proxy)),
  };
}

/** Verbatim over all judgements; 1 when nothing was judged (nothing to lose). */
export function verbatimRate(report: SideIntentReport): number {
  return report.messages === 0 ? 1 : report.verbatim / report.messages;
}

export function intentOverall(rows: readonly IntentRow[]): IntentOverall {
  const sources = [...new Set(rows.map((row) => row.source))].sort();
  return {
    ...sides(rows),
    bySource: sources.map((source) => {
      const of = rows.filter((row) => row.source === source);
      return { source, sessions: of.length, ...sides(of) };
    }),
    belowPassThrough: rows
      .filter((row) => verbatimRate(row.intent.proxy) < verbatimRate(row.intent.passThrough))
      .map((row) => sessionLabel(row.file, row.source)),
  };
}

const percent = (part: number, whole: number): string =>
  whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)}%`;

function cells(intent: IntentSides): string {
  const { passThrough: pass, proxy } = intent;
  return [
    pass.calls,
    pass.messages,
    `${percent(pass.verbatim, pass.messages)} / ${percent(proxy.verbatim, proxy.messages)}`,
    `${pass.cut} / ${proxy.cut}`,
    `${pass.lost} / ${proxy.lost}`,
    `${percent(pass.callsWithAll, pass.calls)} / ${percent(proxy.callsWithAll, proxy.calls)}`,
    `${percent(pass.tasksVisible, pass.callsWithTasks)} / ${percent(proxy.tasksVisible, proxy.callsWithTasks)}`,
    `${percent(pass.failureVisible, pass.callsWithFailure)} / ${percent(proxy.failureVisible, proxy.callsWithFailure)}`,
    `${pass.callsOnSyntheticSummary} / ${proxy.callsOnSyntheticSummary}`,
  ].join(' | ');
}

/** The intent table printed after the grounding table: sessions, then sources, then all. */
export function intentTable(rows: readonly IntentRow[], total: IntentOverall): string {
  const lines = [
    '| session | calls judged | messages judged | verbatim (pass / proxy) | cut (pass / proxy) | lost (pass / proxy) | calls with all visible (pass / proxy) | task list visible (pass / proxy) | latest failure visible (pass / proxy) | calls on a synthetic summary (pass / proxy) |',
    '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: |',
    ...rows.map((row) => `| ${sessionLabel(row.file, row.source)} | ${cells(row.intent)} |`),
    ...total.bySource.map(
      (source) => `| **${source.source}** (${source.sessions} sessions) | ${cells(source)} |`,
    ),
    `| **all ${rows.length} sessions** | ${cells(total)} |`,
  ];
  if (total.belowPassThrough.length > 0) {
    lines.push(
      `\nproxy shows fewer user messages verbatim than pass-through: ${total.belowPassThrough.join(', ')}`,
    );
  }
  return lines.join('\n');
}
