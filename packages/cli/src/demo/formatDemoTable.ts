/**
 * The demo's side-by-side comparison: one column per strategy, rows for context tokens every tenth
 * turn, compressions, what each density pass reclaimed, and the work done (model and tool calls).
 * Pure: the same report always gives the same text (no paths, no timings).
 */
import type { DemoReport } from './runDemo.js';
import type { DemoRun } from './runDemoSession.js';
import { renderTextTable, type TextTableRow } from './textTable.js';
import { formatCount } from './formatCount.js';
import { OFFLINE_SUMMARIZER_LABEL } from '@dense/core';

const NONE = '–';

/** The turns reported in the table: every tenth, and the last. */
export function reportedTurns(turns: number): number[] {
  const tens = Array.from({ length: Math.floor(turns / 10) }, (_, i) => (i + 1) * 10);
  return tens.at(-1) === turns || turns === 0 ? tens : [...tens, turns];
}

function reclaimed(pass: { readonly count: number; readonly tokens: number }): string {
  return pass.count === 0 ? NONE : `${formatCount(pass.tokens)} (${pass.count})`;
}

/** `24, 30, 39`; longer lists keep the first two and the last: `13, 16 … 39`. */
export function compressionTurns(turns: readonly number[]): string {
  if (turns.length === 0) return NONE;
  if (turns.length <= 3) return turns.join(', ');
  return `${turns.slice(0, 2).join(', ')} … ${turns[turns.length - 1]}`;
}

function row(
  label: string,
  runs: readonly DemoRun[],
  cell: (run: DemoRun) => string,
): TextTableRow {
  return { label, cells: runs.map(cell) };
}

function tableRows(report: DemoReport): TextTableRow[] {
  const { runs, turns } = report;
  return [
    ...reportedTurns(turns).map((t) =>
      row(`context tokens, turn ${t}`, runs, (r) => {
        const tokens = r.contextTokens[t - 1];
        return tokens === undefined ? NONE : formatCount(tokens);
      }),
    ),
    row('peak context tokens', runs, (r) => formatCount(r.peakContextTokens)),
    row('input tokens, all calls', runs, (r) => formatCount(r.cumulativeInputTokens)),
    row('  priced with caching', runs, (r) => formatCount(r.cacheWeightedInputTokens)),
    row('compressions', runs, (r) => String(r.compressions.length)),
    row('  during turns', runs, (r) => compressionTurns(r.compressions.map((c) => c.turn))),
    row('density edits', runs, (r) => (r.density.edits === 0 ? NONE : String(r.density.edits))),
    row('reclaimed: stale reads', runs, (r) => reclaimed(r.density.readWrite)),
    row('reclaimed: stale @', runs, (r) => reclaimed(r.density.dedup)),
    row('reclaimed: recency', runs, (r) => reclaimed(r.density.recency)),
    row('kept out: repeats', runs, (r) =>
      reclaimed({ count: r.keptOut.notes, tokens: r.keptOut.tokens }),
    ),
    row('model calls', runs, (r) => String(r.modelCalls)),
    row('summarizer calls', runs, (r) =>
      r.summarizerCalls === 0 ? NONE : String(r.summarizerCalls),
    ),
    row('tool calls (red test runs)', runs, (r) => `${r.toolCalls} (${r.failedToolCalls})`),
  ];
}

/** The comparison table with its heading and the legend below it. */
export function formatDemoTable(report: DemoReport): string {
  const threshold = report.threshold;
  const heading = [
    `dense demo: the same ${report.turns}-turn scripted coding session on a sample project, run offline under each strategy.`,
    `Context limit ${formatCount(report.contextLimit)} tokens; compression runs at ${threshold} of it (${formatCount(report.contextLimit * threshold)} tokens).`,
    '',
  ];
  const table = renderTextTable({
    headers: report.runs.map((r) => r.variant.header),
    rows: tableRows(report),
  });
  const legend = [
    '',
    'context tokens: the history sent with the last model call of the turn.',
    "priced with caching: the same input with Anthropic's 5-minute prompt cache (reads 0.1×, writes",
    '  1.25×; an edited history is written again from the edit on), in uncached-token units.',
    'reclaimed: tokens removed by each density pass (items pruned) — stale reads: file contents read',
    '  before a later edit of that file; stale @: an @-inclusion of a file included again or edited later;',
    '  recency: tool results beyond the newest 3 per tool, replaced by a pointer.',
    'kept out: repeats of a copy still in context (a re-read, an output or the lines it repeats, an',
    '  @-inclusion) recorded as a one-line note naming it, so nothing already sent is edited (tokens',
    '  kept out, notes).',
    `LLM strategies (middle-out, one-shot) summarize with the ${OFFLINE_SUMMARIZER_LABEL}.`,
  ];
  return [...heading, table, ...legend].join('\n');
}
