/**
 * What the recorded agent put back into its context right after its own compaction without
 * recording it: Claude Code up to 1.0.77 re-reads the files it touched most recently and restores
 * its todo list (measured against the prompt tokens it recorded, docs/benchmarks.md); the
 * versions after it in the corpus restore nothing. The `recorded` policy adds these entries after
 * each such boundary, so they count in its tokens and cost as the agent paid them. Each file's
 * content is what the replay knows at the boundary: its last full read or write, with the later
 * edits applied where their text matches. Pure.
 */
import type { IContent, ToolCallBlock, ToolResponseBlock } from '../services/history/IContent.js';
import { namedFile, showsWindow } from './oracle/oracleFacts.js';
import { isRecordedSummary } from './recordedCompactions.js';

/** How an agent restores context after its compaction. */
export interface ReattachmentRule {
  /** Newest agent version (dotted numbers) that restores; newer or unknown versions restore nothing. */
  readonly lastVersion: string;
  /** The most recently read, written or edited files restored. */
  readonly maxFiles: number;
  /** Lines of a file restored (its read tool's default window). */
  readonly maxLinesPerFile: number;
}

export const CLAUDE_CODE_REATTACHMENT: ReattachmentRule = {
  lastVersion: '1.0.77',
  maxFiles: 5,
  maxLinesPerFile: 2000,
};

/** Why the replay added an entry after a recorded compaction (its `metadata.reason`). */
export const REATTACHED_REASON = 'restored by the agent after its compaction';

interface KnownFile {
  lines: readonly string[];
  touched: number;
}

/** -1, 0, 1 as dotted version `a` is older than, equal to or newer than `b`. */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [a.split('.').map(Number), b.split('.').map(Number)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return Math.sign(d);
  }
  return 0;
}

function restores(summary: IContent, rule: ReattachmentRule): boolean {
  const version = summary.metadata?.agentVersion;
  if (typeof version !== 'string' || !/^\d+(\.\d+)*$/.test(version)) return false;
  return compareVersions(version, rule.lastVersion) <= 0;
}

const NUMBERED_LINE = /^\s*(\d+)(?:→|\t)(.*)$/;

/**
 * A read result's file lines, placed at their line numbers over `base` (a window of a file read
 * in parts fills in what the earlier windows showed); unnumbered output is the whole file.
 */
function readLines(result: string, base: readonly string[]): string[] {
  const lines = [...base];
  let numbered = false;
  for (const line of result.split('\n')) {
    const match = NUMBERED_LINE.exec(line);
    if (!match) {
      if (numbered) break;
      continue;
    }
    numbered = true;
    const at = Number(match[1]) - 1;
    while (lines.length < at) lines.push('');
    lines[at] = match[2] ?? '';
  }
  return numbered ? lines : result.split('\n');
}

const asText = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

function applyEdit(lines: readonly string[], params: Record<string, unknown>): readonly string[] {
  const [from, to] = [asText(params.old_string), asText(params.new_string)];
  const text = lines.join('\n');
  if (from === undefined || to === undefined || from === '' || !text.includes(from)) return lines;
  return (
    params.replace_all === true ? text.split(from).join(to) : text.replace(from, () => to)
  ).split('\n');
}

/** A file's lines after a successful read, write or edit of it (`undefined`: none known). */
function linesAfter(
  call: ToolCallBlock,
  result: string,
  known: readonly string[] | undefined,
): readonly string[] | undefined {
  const params = (call.parameters ?? {}) as Record<string, unknown>;
  switch (call.name) {
    case 'read_file':
      return readLines(result, showsWindow(call, result) ? (known ?? []) : []);
    case 'write_file':
      return asText(params.content)?.split('\n');
    case 'replace':
      return known === undefined ? undefined : applyEdit(known, params);
    default:
      return undefined;
  }
}

/** The files and todo list the agent holds, followed call by call. */
class AgentState {
  readonly files = new Map<string, KnownFile>();
  todos: string | undefined;
  private clock = 0;

  onResponse(call: ToolCallBlock, response: ToolResponseBlock): void {
    if (response.error !== undefined) return;
    if (call.name === 'todo_write') {
      const params = (call.parameters ?? {}) as Record<string, unknown>;
      this.todos = JSON.stringify(params.todos ?? params);
    }
    const file = namedFile(call);
    if (file === undefined) return;
    const lines = linesAfter(call, asText(response.result) ?? '', this.files.get(file)?.lines);
    if (lines !== undefined) this.files.set(file, { lines, touched: ++this.clock });
  }

  /** The entry the agent restores: its most recently touched files, then its todo list. */
  restore(rule: ReattachmentRule): IContent | undefined {
    const recent = [...this.files]
      .sort(([, a], [, b]) => b.touched - a.touched)
      .slice(0, rule.maxFiles);
    const blocks = recent.map(([file, { lines }]) => ({
      type: 'text' as const,
      text: `${file}\n${lines
        .slice(0, rule.maxLinesPerFile)
        .map((line, i) => `${String(i + 1).padStart(6)}→${line}`)
        .join('\n')}`,
    }));
    if (this.todos !== undefined) blocks.push({ type: 'text', text: this.todos });
    if (blocks.length === 0) return undefined;
    return { speaker: 'human', blocks, metadata: { synthetic: true, reason: REATTACHED_REASON } };
  }
}

/**
 * Per recorded summary that ends earlier content and was written by an agent version that
 * restores context, the entry the agent added after it (restored files, then the todo list).
 */
export function planReattachments(
  contents: readonly IContent[],
  rule: ReattachmentRule = CLAUDE_CODE_REATTACHMENT,
): ReadonlyMap<IContent, IContent> {
  const plan = new Map<IContent, IContent>();
  const state = new AgentState();
  const calls = new Map<string, ToolCallBlock>();
  let seenContent = false;
  for (const entry of contents) {
    if (isRecordedSummary(entry)) {
      const restored = seenContent && restores(entry, rule) ? state.restore(rule) : undefined;
      if (restored) plan.set(entry, restored);
      continue;
    }
    seenContent = true;
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') calls.set(block.id, block);
      if (block.type !== 'tool_response') continue;
      const call = calls.get(block.callId);
      if (call) state.onResponse(call, block);
    }
  }
  return plan;
}
