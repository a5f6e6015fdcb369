/**
 * The `/context` breakdown as lines: usage against the limit, strategy and threshold, tokens by
 * speaker and by tool, what each density pass removed this session (counts and tokens), and every
 * compression (when, strategy, before → after). Pure; ContextView renders it.
 */
import {
  CACHE_RULES,
  type ContextReport,
  type DensityPassSwitches,
  type DensityPassTotals,
} from '@dense/core';
import type { OutputLine } from './outputLine.js';
import { plainNoopReason } from './compressionReason.js';
import { compressionRemovedLines, promptLines, type PromptTokens } from './contextExtraLines.js';
import { formatCount, formatPercent } from './formatTokens.js';
import { usageBar } from './usageBar.js';

export interface ContextLinesOptions {
  /** Which density passes are switched on (shown as "off" next to a pass that is not). */
  readonly switches?: DensityPassSwitches;
  /** Formats a compression's time; default local `HH:MM:SS`. */
  readonly clock?: (at: number) => string;
  readonly barWidth?: number;
  /** Below 64 columns the density lines use a compact form. */
  readonly width?: number;
  /** System prompt, memory files and tool schemas: sent with every request. */
  readonly prompt?: PromptTokens;
  readonly workspaceRoot?: string;
}

const defaultClock = (at: number): string => new Date(at).toTimeString().slice(0, 8);

function passLine(
  label: string,
  pass: DensityPassTotals,
  noun: string,
  on: boolean | undefined,
  narrow: boolean,
): OutputLine {
  const items = `${pass.count} ${noun}${pass.count === 1 ? '' : 's'}`;
  const off = on === false ? ' (off)' : '';
  const tokens = formatCount(pass.tokens);
  const text = narrow
    ? `  ${label}: ${items}, ${tokens} tokens${off}`
    : `  ${label.padEnd(LABEL_WIDTH)} ${items} pruned · ${tokens} tokens freed${off}`;
  return { text, tone: pass.count > 0 ? 'success' : 'normal' };
}

const LABEL_WIDTH = 12;

/** Repeated copies recorded as a note naming the copy in context: none, no line. */
function keptOutLine(report: ContextReport, narrow: boolean): OutputLine[] {
  const kept = report.keptOut;
  if (kept === undefined || kept.notes === 0) return [];
  const notes = `${kept.notes} repeat${kept.notes === 1 ? '' : 's'}`;
  const tokens = formatCount(kept.tokens);
  const text = narrow
    ? `  kept out: ${notes}, ${tokens} tokens`
    : `  ${'kept out'.padEnd(LABEL_WIDTH)} ${notes} noted · ${tokens} tokens never sent`;
  return [{ text, tone: 'success' }];
}

function usageLines(report: ContextReport, barWidth: number): OutputLine[] {
  const { totalTokens, entries, bySpeaker } = report.breakdown;
  const fraction = report.contextLimit > 0 ? totalTokens / report.contextLimit : 0;
  const trigger = Math.floor(report.threshold * report.contextLimit);
  return [
    {
      text: `Context: ${formatCount(totalTokens)} of ${formatCount(report.contextLimit)} tokens (${formatPercent(fraction)}) ${usageBar(fraction, barWidth)}`,
      tone: 'heading',
    },
    {
      text: `Strategy: ${report.strategy} · threshold ${report.threshold} (compresses at ${formatCount(trigger)} tokens)`,
    },
    {
      text: `By speaker: human ${formatCount(bySpeaker.human)} · ai ${formatCount(bySpeaker.ai)} · tool ${formatCount(bySpeaker.tool)} (${entries} entries)`,
    },
  ];
}

function toolLines(report: ContextReport): OutputLine[] {
  const tools = Object.entries(report.breakdown.byTool).sort((a, b) => b[1] - a[1]);
  if (tools.length === 0) return [{ text: 'By tool: none', tone: 'dim' }];
  const width = Math.max(...tools.map(([name]) => name.length));
  return [
    { text: 'By tool:' },
    ...tools.map(([name, tokens]) => ({ text: `  ${name.padEnd(width)}  ${formatCount(tokens)}` })),
  ];
}

function densityLines(
  report: ContextReport,
  switches: DensityPassSwitches | undefined,
  narrow: boolean,
): OutputLine[] {
  const { density } = report;
  const edits = `${density.edits} history edit${density.edits === 1 ? '' : 's'}`;
  const total = formatCount(report.reclaimedTokens);
  return [
    { text: `Density this session (${edits}):`, tone: 'heading' },
    passLine('READ→WRITE', density.readWrite, 'stale read', switches?.readWrite, narrow),
    passLine('@file stale', density.dedup, 'stale @file inclusion', switches?.dedup, narrow),
    passLine('recency', density.recency, 'old result', switches?.recency, narrow),
    ...keptOutLine(report, narrow),
    {
      text: narrow
        ? `  total: ${total} tokens reclaimed`
        : `  ${'total'.padEnd(LABEL_WIDTH)} ${total} tokens reclaimed`,
    },
    ...(density.deferredTokens > 0
      ? [
          {
            text: `  ${formatCount(density.deferredTokens)} stale tokens held back until an edit pays for its cache misses`,
            tone: 'dim' as const,
          },
        ]
      : []),
  ];
}

/** One line: density's prompt-cache effect under the session provider's rules. */
function cacheLine(report: ContextReport): OutputLine[] {
  const cache = report.densityCache;
  if (cache === undefined || (cache.notSentTokens === 0 && cache.rewrittenTokens === 0)) return [];
  const net = Math.round(cache.net);
  const verdict = net <= 0 ? `saved ${formatCount(-net)}` : `cost ${formatCount(net)} more`;
  return [
    {
      text:
        `  cache (${CACHE_RULES[cache.provider].label}): ${formatCount(cache.notSentTokens)} tokens ` +
        `not re-sent · ${formatCount(cache.rewrittenTokens)} re-written after edits · net ${verdict} ` +
        'input-token units',
      tone: net <= 0 ? 'success' : 'warning',
    },
  ];
}

function compressionLines(report: ContextReport, clock: (at: number) => string): OutputLine[] {
  if (report.compressions.length === 0) {
    return [{ text: 'Compressions: none yet', tone: 'heading' }];
  }
  return [
    { text: `Compressions (${report.compressions.length}):`, tone: 'heading' },
    ...report.compressions.map((c) => {
      const change = `${formatCount(c.tokensBefore)} → ${formatCount(c.tokensAfter)} tokens`;
      const kind = c.kind === 'noop' ? ` (nothing done: ${plainNoopReason(c.reason)})` : '';
      return { text: `  ${clock(c.at)}  ${c.strategy}  ${change}${kind}` };
    }),
  ];
}

export function contextReportLines(
  report: ContextReport,
  options: ContextLinesOptions = {},
): OutputLine[] {
  return [
    ...usageLines(report, options.barWidth ?? 20),
    ...(options.prompt ? promptLines(report, options.prompt, options.workspaceRoot) : []),
    ...toolLines(report),
    ...densityLines(report, options.switches, (options.width ?? 100) < 64),
    ...cacheLine(report),
    ...compressionLines(report, options.clock ?? defaultClock),
    ...compressionRemovedLines(report),
  ];
}
