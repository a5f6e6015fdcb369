/**
 * The body of a compaction summary, after the user's words and the skills: the artifact trail,
 * subagents' reports and the turns' lines, each in the room the one before leaves. A command or
 * output the turns already show with its recall id is not named again in the trail; the room that
 * frees goes to the turns. Pure.
 */
import type { HistoryView } from '../../core/compression/artifactTrail/namedInHistory.js';
import { recallIdsNamedIn } from '../../core/compression/recallPointers.js';
import { fitSummaryLines, TURNS_HEADING, type SummaryLine } from './fitSummaryLines.js';
import type { SubagentReports } from './subagentReports.js';

/** The artifact trail's share of the budget, and its floor when the user's words take the rest. */
const TRAIL_SHARE = 1 / 3;
const TRAIL_FLOOR_SHARE = 1 / 12;
/** Subagents' reports may take up to this share of what the turns and they have left. */
const REPORTS_SHARE = 1 / 2;

/** What the body sections are made from; each section is rendered within the room it is given. */
export interface BodyInput {
  readonly budgetChars: number;
  /** Room left after the header and the user's messages (their separator not yet taken). */
  readonly left: number;
  /** Characters of the separator before the user's messages (0 when there are none). */
  readonly pinnedSeparator: number;
  /** The artifact trail within `chars`, leaving out the outputs `shown` names by recall id. */
  readonly trail: (chars: number, shown?: HistoryView) => string;
  readonly reports: (chars: number) => SubagentReports;
  /** The turns' lines, given the outputs the reports section shows. */
  readonly lines: (reported: ReadonlySet<string>) => readonly SummaryLine[];
}

interface Body {
  readonly trail: string;
  readonly reports: string;
  readonly turns: readonly string[];
}

/** Subagents' reports and the turns in the room a rendered trail leaves. */
function bodyAround(input: BodyInput, trail: string): Body {
  const rest = Math.max(
    0,
    input.left - input.pinnedSeparator - (trail === '' ? 0 : trail.length + 2),
  );
  const { text: reports, reported } = input.reports(Math.floor(rest * REPORTS_SHARE));
  const turnsBudget = Math.max(
    0,
    rest - (reports === '' ? 0 : reports.length + 2) - TURNS_HEADING.length - 2,
  );
  return { trail, reports, turns: fitSummaryLines(input.lines(reported), turnsBudget) };
}

/** Whether every recall id `ids` holds is named somewhere in `body`. */
function namesAll(body: Body, ids: readonly string[]): boolean {
  const named = new Set(recallIdsNamedIn([body.trail, body.reports, ...body.turns].join('\n')));
  return ids.every((id) => named.has(id));
}

/**
 * The sections after the user's messages, in the order the room serves them: the artifact trail
 * (its share of the budget, its floor when the user's words took the rest), subagents' reports
 * (up to their share of what is left), then the turns' lines in the rest. A command or output the
 * turns already show with its recall id is not named again in the trail, and the room that frees
 * goes to the turns — unless the turns, laid out again in it, would drop one of those outputs.
 */
export function bodySections(input: BodyInput): string[] {
  const { budgetChars, left } = input;
  const trailBudget = Math.max(
    Math.floor(budgetChars * TRAIL_FLOOR_SHARE),
    Math.min(Math.floor(budgetChars * TRAIL_SHARE), left),
  );
  const first = bodyAround(input, input.trail(trailBudget));
  const turnsText = first.turns.join('\n');
  const shown: HistoryView = { text: turnsText, recallIds: new Set(recallIdsNamedIn(turnsText)) };
  const leaner = input.trail(trailBudget, shown);
  const second = leaner.length < first.trail.length ? bodyAround(input, leaner) : undefined;
  const body =
    second !== undefined && namesAll(second, recallIdsNamedIn(first.trail)) ? second : first;
  return [
    ...(body.trail === '' ? [] : ['', body.trail]),
    ...(body.reports === '' ? [] : ['', body.reports]),
    ...(body.turns.length === 0 ? [] : ['', TURNS_HEADING, ...body.turns]),
  ];
}
