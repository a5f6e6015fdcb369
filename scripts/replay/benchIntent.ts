/**
 * The intent section of the replay bench: per policy and context limit, whether the model still
 * had the user's words — each earlier message the user typed, judged at every model call
 * (verbatim, cut as a long paste's head and tail, or lost), and the share of calls that showed
 * the client's current task list and the latest failure where there was one — and, per session
 * at 128k, where `recorded` or `high-density` lost any user message. Pure.
 */
import type { IntentCounts } from '@dense/core';
import { groupFor, int, pct, ranPolicies, sessionName } from './benchAggregate.js';
import { BENCH_LIMITS, type BenchRun } from './benchTypes.js';
import { row } from './markdownTable.js';

const HEADER = [
  'calls judged',
  'all visible',
  'messages judged',
  'verbatim',
  'cut',
  'lost',
  'task list visible',
  'latest failure visible',
];

function cells(intent: IntentCounts): string[] {
  return [
    int(intent.calls),
    pct(intent.callsWithAll, intent.calls),
    int(intent.messages),
    pct(intent.verbatim, intent.messages),
    int(intent.cut),
    `${int(intent.lost)} (${pct(intent.lost, intent.messages)})`,
    pct(intent.tasksVisible, intent.callsWithTasks),
    pct(intent.failureVisible, intent.callsWithFailure),
  ];
}

function intentTable(runs: readonly BenchRun[], limit: number): string {
  const lines = [row(['policy', ...HEADER]), row(['---', ...HEADER.map(() => '---:')])];
  for (const policy of ranPolicies(runs)) {
    const { intent } = groupFor(runs, policy, limit).totals;
    if (intent !== undefined) lines.push(row([`\`${policy}\``, ...cells(intent)]));
  }
  return lines.join('\n');
}

/** Sessions where `recorded` or `high-density` lost a user message at 128k. */
function lossTable(runs: readonly BenchRun[]): string {
  const watched = runs.filter(
    (run) =>
      (run.policy === 'recorded' || (run.policy === 'high-density' && run.limit === 128_000)) &&
      (run.report.intent?.lost ?? 0) > 0,
  );
  if (watched.length === 0)
    return 'No session lost a user message under `recorded` or `high-density` at 128k.';
  const lines = [
    row(['session', 'policy', ...HEADER]),
    row(['---', '---', ...HEADER.map(() => '---:')]),
  ];
  for (const run of watched) {
    const intent = run.report.intent;
    if (intent !== undefined) {
      lines.push(row([sessionName(run), `\`${run.policy}\``, ...cells(intent)]));
    }
  }
  return lines.join('\n');
}

export function intentSection(runs: readonly BenchRun[]): string {
  return [
    '### Replay: the user’s words (intent oracle)',
    '',
    'At each model call, every earlier message the user typed (client context such as ' +
      '`<system-reminder>` blocks taken out; summaries and attachments are not the user) judged ' +
      'against what the policy sent: verbatim, cut (a paste over 8,000 characters shown as head and ' +
      'tail) or lost. All visible: calls where no earlier message was lost. Task list visible: of ' +
      'the calls made while the client held a non-empty task list (rebuilt from its TaskCreate / ' +
      'TaskUpdate, TodoWrite and update_plan calls), those where every item was in what was sent. ' +
      'Latest failure visible: of the calls made after a failed tool result, those where the ' +
      'latest one’s error line (or its whole output) was in what was sent. See docs/replay.md.',
    '',
    ...BENCH_LIMITS.flatMap((limit) => [`At ${limit / 1000}k:`, '', intentTable(runs, limit), '']),
    'Sessions that lost a user message (`recorded`; `high-density` at 128k):',
    '',
    lossTable(runs),
    '',
  ].join('\n');
}
