/**
 * What the agent's subagents reported in the turns a compaction removes: the text a `Task` /
 * `Agent` call returned (Claude Code; `task` / `agent` in Qwen Code and OpenCode). A report is the
 * condensed result of work the agent delegated (a codebase survey, a trace through a subsystem),
 * and the agent goes back to its names and paths long after it arrived, so a summary carries
 * reports as text, newest first, within their share of its room: whole when they fit, else their
 * head, each with the recall id of the whole. Pure.
 */
import type { IContent, ToolCallBlock } from '../../services/history/IContent.js';
import { originalResponseText, recallIdOfResponse } from '../../core/compression/recallPointers.js';
import { withoutClientContext } from '../../services/history/clientContext.js';

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
}

function subjectOf(call: ToolCallBlock | undefined): string {
  const params = call?.parameters;
  if (typeof params !== 'object' || params === null) return 'a subagent';
  const record = params as Record<string, unknown>;
  const named = record.description ?? record.subagent_type;
  return typeof named === 'string' && named.trim() !== '' ? named.trim() : 'a subagent';
}

/** The reports among `removed`, oldest first. */
function reportsOf(removed: readonly IContent[]): Report[] {
  const calls = new Map<string, ToolCallBlock>();
  const reports: Report[] = [];
  for (const entry of removed) {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') calls.set(block.id, block);
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
      });
    }
  }
  return reports;
}

/** One report within `room` characters, or '' when too little of it would fit. */
function renderReport(report: Report, room: number): string {
  const head = `[${report.subject}; recall id ${report.id}]`;
  const whole = `${head}\n${report.text}`;
  if (whole.length <= room) return whole;
  const cutNote = `[… the rest: \`dense recall ${report.id}\`]`;
  const keep = room - head.length - cutNote.length - 2;
  if (keep < MIN_REPORT_CHARS) return '';
  return `${head}\n${report.text.slice(0, keep)}\n${cutNote}`;
}

/** The reports section, and the call ids of the reports it shows whole. */
export interface SubagentReports {
  /** '' when there are none or no room. */
  readonly text: string;
  readonly shownWhole: ReadonlySet<string>;
}

/** The reports section within `budgetChars` characters. */
export function subagentReports(
  removed: readonly IContent[],
  budgetChars: number,
): SubagentReports {
  const parts: string[] = [];
  const shownWhole = new Set<string>();
  let left = budgetChars - REPORTS_HEADING.length - 1;
  for (const report of reportsOf(removed).reverse()) {
    const rendered = renderReport(report, left);
    if (rendered === '') continue;
    parts.push(rendered);
    if (rendered.endsWith(report.text)) shownWhole.add(report.callId);
    left -= rendered.length + 1;
  }
  const text = parts.length === 0 ? '' : [REPORTS_HEADING, ...parts].join('\n');
  return { text, shownWhole };
}
