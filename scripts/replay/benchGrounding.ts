/**
 * The grounding and work-redone section of the replay bench: per policy and context limit, over
 * every session (self-compacted ones included), how many of the specifics the agent used next the
 * policy still showed, how many it left recallable or hid, and the tool calls that re-fetched
 * content across a compaction. Pure.
 */
import { groundingRate } from '@dense/core';
import { groupFor, int, pct, ranPolicies } from './benchAggregate.js';
import { BENCH_LIMITS, type BenchRun } from './benchTypes.js';
import { row } from './markdownTable.js';

function groundingTable(runs: readonly BenchRun[], limit: number): string {
  const lines = [
    row([
      'policy',
      'specifics used',
      'grounding rate',
      'recallable',
      'hidden',
      'work redone',
      'kept in context',
    ]),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:']),
  ];
  for (const policy of ranPolicies(runs)) {
    const { grounding, workRedone } = groupFor(runs, policy, limit).totals;
    if (grounding === undefined || workRedone === undefined) continue;
    const rate = groundingRate(grounding);
    lines.push(
      row([
        `\`${policy}\``,
        int(grounding.specifics),
        rate === null ? '–' : `${(100 * rate).toFixed(2)}%`,
        `${int(grounding.recallable)} (${pct(grounding.recallable, grounding.specifics)})`,
        `${int(grounding.hidden)} (${pct(grounding.hidden, grounding.specifics)})`,
        int(workRedone.redone),
        int(workRedone.keptInContext),
      ]),
    );
  }
  return lines.join('\n');
}

export function groundingSection(runs: readonly BenchRun[]): string {
  return [
    '### Replay: grounding and work redone (all sessions, self-compacted included)',
    '',
    'Specifics used: the file paths, line references, test names, error strings, identifiers and ' +
      '4+-digit numbers in each recorded reply (text and tool-call arguments) that first appeared in ' +
      'an earlier tool output or user message, once per model call. Grounding rate: visible in what ' +
      'the policy sent to that call; recallable: not visible but named there by a recall id; hidden: ' +
      'neither. Work redone: recorded tool calls that re-fetch content (same file, no write between; ' +
      'same command, same output) across a compaction (the agent’s own or the policy’s) when the ' +
      'policy no longer sent the earlier copy; kept in context: the policy still sent it, so the ' +
      're-fetch is waste of the agent’s own compaction. See docs/replay.md.',
    '',
    ...BENCH_LIMITS.flatMap((limit) => [
      `At ${limit / 1000}k:`,
      '',
      groundingTable(runs, limit),
      '',
    ]),
  ].join('\n');
}
