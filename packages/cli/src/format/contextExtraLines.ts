/**
 * The parts of `/context` beyond the history: what rides on every request
 * (system prompt, memory files, tool schemas), a one-line map of the window by category, and what
 * compression removed. Pure; letters mark the categories so the bar reads without colour.
 */
import path from 'node:path';
import type { ContextReport } from '@dense/core';
import type { OutputLine } from './outputLine.js';
import { formatCount } from './formatTokens.js';

/** Mirrors CliSession's PromptParts (format/ stays free of session types). */
export interface PromptTokens {
  readonly systemTokens: number;
  readonly memoryFiles: readonly { readonly path: string; readonly tokens: number }[];
  readonly toolSchemaTokens: number;
}

const BAR_WIDTH = 40;

function fixedTokens(prompt: PromptTokens): number {
  return (
    prompt.systemTokens +
    prompt.toolSchemaTokens +
    prompt.memoryFiles.reduce((sum, file) => sum + file.tokens, 0)
  );
}

/** `P` prompt+memory+tools, `U` user, `A` model, `R` tool results, `·` free. */
export function windowBar(report: ContextReport, prompt: PromptTokens, width = BAR_WIDTH): string {
  const { bySpeaker } = report.breakdown;
  const parts: [string, number][] = [
    ['P', fixedTokens(prompt)],
    ['U', bySpeaker.human],
    ['A', bySpeaker.ai],
    ['R', bySpeaker.tool],
  ];
  const limit = Math.max(1, report.contextLimit);
  let bar = '';
  for (const [letter, tokens] of parts) {
    const cells = tokens > 0 ? Math.max(1, Math.round((tokens / limit) * width)) : 0;
    bar += letter.repeat(cells);
  }
  bar = bar.slice(0, width);
  return `[${bar}${'·'.repeat(width - bar.length)}]`;
}

export function promptLines(
  report: ContextReport,
  prompt: PromptTokens,
  workspaceRoot?: string,
): OutputLine[] {
  const memory = prompt.memoryFiles.reduce((sum, file) => sum + file.tokens, 0);
  const shown = (file: string): string =>
    workspaceRoot === undefined ? file : path.relative(workspaceRoot, file) || file;
  return [
    {
      text: `Sent with every request (never pruned): system prompt ${formatCount(prompt.systemTokens)} · memory files ${formatCount(memory)} · tool schemas ${formatCount(prompt.toolSchemaTokens)}`,
    },
    ...prompt.memoryFiles.map((file) => ({
      text: `  memory  ${shown(file.path)}  ${formatCount(file.tokens)}`,
      tone: 'dim' as const,
    })),
    {
      text: `Window ${windowBar(report, prompt)} P prompt · U you · A model · R tool results · free`,
    },
  ];
}

/** What compression took out of the history this session (no lines when none). */
export function compressionRemovedLines(report: ContextReport): OutputLine[] {
  const done = report.compressions.filter((c) => c.kind !== 'noop');
  if (done.length === 0) return [];
  const removed = done.reduce((sum, c) => sum + Math.max(0, c.tokensBefore - c.tokensAfter), 0);
  const ids = report.recallable?.ids ?? 0;
  const back =
    ids === 0
      ? ' (the full transcript stays in the session recording)'
      : ` · ${formatCount(ids)} recallable by id`;
  return [
    {
      text: `Compression removed ${formatCount(removed)} tokens in ${done.length} run${done.length === 1 ? '' : 's'}${back}`,
    },
  ];
}
