/**
 * What the agent's subagents reported in the turns a compaction removes: the text a `Task` /
 * `Agent` call returned (Claude Code; `task` / `agent` in Qwen Code and OpenCode). A report is the
 * condensed result of work the agent delegated (a codebase survey, a trace through a subsystem),
 * and the agent goes back to its names and paths long after it arrived, so a summary carries
 * reports as text, newest first, sharing their part of its room: whole when they fit, else their
 * head and the names, paths and numbers of the rest, each with the recall id of the whole. Pure.
 */
import {
  toolCallsById,
  type IContent,
  type ToolCallBlock,
} from '../../services/history/IContent.js';
import { originalResponseText, recallIdOfResponse } from '../../core/compression/recallPointers.js';
import { withoutClientContext } from '../../services/history/clientContext.js';
import { proseSpecifics, specificsWithin } from './outputSpecifics.js';
import { isDenseText } from '../../core/compression/denseText.js';
import { LISTED_HEADING } from './listedNames.js';
import { RECURRING_HEADING } from './recurringNames.js';
import { TURNS_HEADING } from './fitSummaryLines.js';

const SUBAGENT_TOOLS = new Set(['Task', 'Agent', 'task', 'agent']);
export const REPORTS_HEADING = 'What subagents reported, newest first:';
/** A report cut shorter than this is left to its line in the turns (and its recall id). */
const MIN_REPORT_CHARS = 400;
/**
 * Shorter results are notices, not reports (a subagent started in the background, a refusal):
 * their turn line shows them.
 */
const MIN_REPORT_TEXT = 1_000;

interface Report {
  readonly callId: string;
  readonly id: string;
  readonly subject: string;
  readonly text: string;
  /** The report's entry (what the agent mentioned after it is read against it). */
  readonly entry: IContent;
}

/** Whether the agent mentioned `token` after `entry` (ranked first among a report's names). */
export type MentionedAfter = (token: string, entry: IContent) => boolean;

function subjectOf(call: ToolCallBlock | undefined): string {
  const params = call?.parameters;
  if (typeof params !== 'object' || params === null) return 'a subagent';
  const record = params as Record<string, unknown>;
  const named = record.description ?? record.subagent_type;
  return typeof named === 'string' && named.trim() !== '' ? named.trim() : 'a subagent';
}

/**
 * What follows the reports section in a summary: the next section, or the end of the reply that
 * wraps the summary (Claude Code's `</summary>`, Qwen Code's `</state_snapshot>`).
 */
const SECTION_ENDS = [
  `\n\n${TURNS_HEADING}`,
  `\n\n${LISTED_HEADING}`,
  `\n\n${RECURRING_HEADING}`,
  '\n</summary>',
  '\n</state_snapshot>',
];

/** A report's first line in a summary's reports section. */
const REPORT_HEAD = /^\[([^\n\]]+); recall id (r[0-9a-f]{10})\]$/gm;

/**
 * The reports an earlier Dense summary among the removed turns showed (its answer to the client's
 * compaction, which the client keeps as its history): each as that summary had it (whole, or head
 * and names) under its own recall id, so what the client kept is not dropped with it.
 */
function carriedReports(entry: IContent): Report[] {
  if (entry.speaker === 'ai') return [];
  const reports: Report[] = [];
  for (const block of entry.blocks) {
    if (block.type !== 'text' || !isDenseText(block.text)) continue;
    const from = block.text.indexOf(`${REPORTS_HEADING}\n`);
    if (from < 0) continue;
    const ends = SECTION_ENDS.map((end) => block.text.indexOf(end, from)).filter((at) => at >= 0);
    const section = block.text.slice(from, Math.min(block.text.length, ...ends));
    const heads = [...section.matchAll(REPORT_HEAD)];
    heads.forEach((head, index) => {
      const start = (head.index ?? 0) + head[0].length + 1;
      const text = section.slice(start, heads[index + 1]?.index ?? section.length).trim();
      const id = head[2] as string;
      reports.push({ callId: `carried ${id}`, id, subject: head[1] as string, text, entry });
    });
  }
  return reports;
}

/** The reports among `removed`, oldest first (those earlier summaries carried first). */
function reportsOf(
  removed: readonly IContent[],
  calls: ReadonlyMap<string, ToolCallBlock>,
): Report[] {
  const reports: Report[] = [];
  for (const entry of removed) {
    reports.push(...carriedReports(entry));
    for (const block of entry.blocks) {
      if (block.type !== 'tool_response' || block.error !== undefined) continue;
      const call = calls.get(block.callId);
      if (!SUBAGENT_TOOLS.has(call?.name ?? block.toolName)) continue;
      const text = withoutClientContext(originalResponseText(block));
      if (text.length < MIN_REPORT_TEXT) continue;
      reports.push({
        callId: block.callId,
        id: recallIdOfResponse(block),
        subject: subjectOf(call),
        text,
        entry,
      });
    }
  }
  return reports;
}

const NAMES_LABEL = '; it names ';
/** The share of a cut report's room its head takes at least; its names take the rest. */
const HEAD_SHARE = 1 / 3;

const headOf = (report: Report) => `[${report.subject}; recall id ${report.id}]`;

/**
 * One report within `room` characters, or '' when too little of it would fit. A report cut
 * short keeps its head and, in the note that points at the rest, the names, paths and numbers
 * the rest mentions (those the agent mentioned after the report first; up to two thirds of the
 * room, the head taking what they leave): what the agent comes back to is most often a name deep
 * in a survey, not its opening prose.
 */
function renderReport(report: Report, room: number, mentioned?: MentionedAfter): string {
  const head = headOf(report);
  const whole = `${head}\n${report.text}`;
  if (whole.length <= room) return whole;
  const note = `[… the rest: \`dense recall ${report.id}\``;
  const available = room - head.length - note.length - 3;
  if (available < MIN_REPORT_CHARS) return '';
  const split = Math.ceil(available * HEAD_SHARE);
  const after =
    mentioned === undefined ? undefined : (token: string) => mentioned(token, report.entry);
  const shown = report.text.slice(0, split);
  const names = specificsWithin(
    proseSpecifics(report.text.slice(split), shown, after),
    available - split - NAMES_LABEL.length,
  );
  const noted = names === '' ? `${note}]` : `${note}${NAMES_LABEL}${names}]`;
  const kept = report.text.slice(0, room - head.length - noted.length - 2);
  return `${head}\n${kept}\n${noted}`;
}

/** The reports section, and the call ids of the reports it shows (whole, or head and names). */
export interface SubagentReports {
  /** '' when there are none or no room. */
  readonly text: string;
  readonly reported: ReadonlySet<string>;
}

/** Room below which a report is not shown at all (its head and names would say too little). */
const MIN_SHARE = 1_500;

/**
 * Each report's room (`needs`: what it takes whole), newest first: the room is shared evenly
 * among the newest reports a `MIN_SHARE` each can show, a report that needs less than its share
 * leaving the rest to the others; older ones get none (their turn lines name them).
 */
export function reportRooms(needs: readonly number[], room: number): number[] {
  const shown = Math.min(needs.length, Math.max(0, Math.floor(room / MIN_SHARE)));
  const rooms = needs.map(() => 0);
  const bySize = needs
    .slice(0, shown)
    .map((need, index) => ({ need, index }))
    .sort((a, b) => a.need - b.need || b.index - a.index);
  let left = room;
  bySize.forEach(({ need, index }, order) => {
    const given = Math.min(need, Math.floor(left / (bySize.length - order)));
    rooms[index] = given;
    left -= given;
  });
  return rooms;
}

/** What the reports are read against: the removed calls by id, what the agent mentioned later. */
export interface ReportsContext {
  /** The removed tool calls by id (default: `toolCallsById(removed)`). */
  readonly calls?: ReadonlyMap<string, ToolCallBlock>;
  readonly mentioned?: MentionedAfter;
}

/** The reports section within `budgetChars` characters, newest first. */
export function subagentReports(
  removed: readonly IContent[],
  budgetChars: number,
  { calls = toolCallsById(removed), mentioned }: ReportsContext = {},
): SubagentReports {
  const reports = reportsOf(removed, calls).reverse();
  const rooms = reportRooms(
    reports.map((report) => headOf(report).length + 2 + report.text.length),
    budgetChars - REPORTS_HEADING.length,
  );
  const parts: string[] = [];
  const reported = new Set<string>();
  reports.forEach((report, index) => {
    const rendered = renderReport(report, (rooms[index] ?? 0) - 1, mentioned);
    if (rendered === '') return;
    parts.push(rendered);
    reported.add(report.callId);
  });
  const text = parts.length === 0 ? '' : [REPORTS_HEADING, ...parts].join('\n');
  return { text, reported };
}
