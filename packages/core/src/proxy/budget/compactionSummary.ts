/**
 * Dense's deterministic summary of the turns a wire compaction removes: the turns as one line each
 * (tool results as high-density's one-line summaries naming their recall ids), the artifact trail
 * of the removed turns and the client's own todo list (its latest TodoWrite call). No LLM; the
 * same turns always give the same text.
 */
import type { IContent, ToolCallBlock } from '../../services/history/IContent.js';
import { applySummaries } from '../../core/compression/density/compress/compressionPlan.js';
import { orderedSummaryCandidates } from '../../core/compression/density/compress/summaryOrder.js';
import { clip } from '../../core/compression/density/compress/summaryText.js';
import { toolKindOf } from '../../core/compression/density/compress/toolSummaryFacts.js';
import { rankedSpecifics, type OutputSpecificsInput } from './outputSpecifics.js';
import { agentMentions, type AgentMentions } from './agentMentions.js';
import { fitSummaryLines, type SummaryLine } from './fitSummaryLines.js';
import { collectArtifacts } from '../../core/compression/artifactTrail/collectArtifacts.js';
import { renderArtifactTrail } from '../../core/compression/artifactTrail/renderArtifactTrail.js';
import {
  originalResponseText,
  recallIdOfResponse,
  recallIdOfText,
} from '../../core/compression/recallPointers.js';
import type { Todo, TodoStatus } from '../../tools/todo-schemas.js';
import { TODO_STATUSES } from '../../tools/todo-schemas.js';
import type { RecallEntry } from '../../recall/RecallArchive.js';

/** The first user message (the task) keeps this much; later ones less. */
const FIRST_USER_CHARS = 2_000;
const USER_CHARS = 600;
const ASSISTANT_CHARS = 300;
const TODO_TOOL = 'todo_write';
type CondensedOutput = Pick<OutputSpecificsInput, 'kind' | 'text'> & {
  /** Where the output sits in the whole conversation (-1: not found there). */
  readonly position: number;
};

export interface SummaryInput {
  /** The removed turns, oldest first. */
  readonly removed: readonly IContent[];
  /** The whole conversation (the todo list is the latest one anywhere in it). */
  readonly history: readonly IContent[];
  /** Raw text of the removed messages, resolvable as one recall id. */
  readonly removedRaw: string;
  /** Characters the summary may take (the todo list always goes in whole). */
  readonly budgetChars: number;
  /** Why the summary is made: the working budget, or the client's own compaction request. */
  readonly purpose: 'working-budget' | 'client-compaction';
}

export interface CompactionSummary {
  readonly text: string;
  /** What the summary's recall ids stand for. */
  readonly recall: readonly RecallEntry[];
}

/** A recall id for the removed messages as a whole. */
export function recallIdOfMessages(raw: string): string {
  return recallIdOfText('messages', raw);
}

function todoStatus(value: unknown): TodoStatus {
  return TODO_STATUSES.find((status) => status === value) ?? 'pending';
}

/** The todo list of the client's latest todo call (Claude Code's TodoWrite), when it made one. */
export function latestTodos(history: readonly IContent[]): Todo[] {
  let latest: ToolCallBlock | undefined;
  for (const entry of history) {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call' && block.name === TODO_TOOL) latest = block;
    }
  }
  const params = latest?.parameters as { todos?: unknown } | undefined;
  if (!Array.isArray(params?.todos)) return [];
  return params.todos.flatMap((item: unknown, index): Todo[] => {
    const todo = item as { content?: unknown; status?: unknown; id?: unknown };
    if (typeof todo.content !== 'string' || todo.content === '') return [];
    const id = typeof todo.id === 'string' && todo.id !== '' ? todo.id : String(index + 1);
    return [{ id, content: todo.content, status: todoStatus(todo.status) }];
  });
}

/** Each removed tool output's own text, kind and position in `history`, by call id. */
function outputsByCall(
  removed: readonly IContent[],
  history: readonly IContent[],
): Map<string, CondensedOutput> {
  const positions = new Map(history.map((entry, position) => [entry, position]));
  const calls = new Map<string, ToolCallBlock>();
  const found = new Map<string, CondensedOutput>();
  for (const entry of removed) {
    const position = positions.get(entry) ?? -1;
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') calls.set(block.id, block);
      if (block.type !== 'tool_response') continue;
      const call = calls.get(block.callId);
      const kind = toolKindOf(call?.name ?? block.toolName, call?.parameters);
      found.set(block.callId, { kind, text: originalResponseText(block), position });
    }
  }
  return found;
}

/**
 * A tool output's summary line with its specifics, best first: those the agent mentioned after
 * the output lead.
 */
function toolLine(
  line: string,
  output: CondensedOutput | undefined,
  mentions: AgentMentions,
): SummaryLine {
  if (output === undefined) return { text: line };
  const mentioned = (token: string) => mentions.after(token, output.position);
  return { text: line, specifics: rankedSpecifics({ ...output, shown: line, mentioned }) };
}

interface Context {
  readonly outputs: ReadonlyMap<string, CondensedOutput>;
  readonly mentions: AgentMentions;
}

function entryLines(entry: IContent, first: boolean, context: Context): SummaryLine[] {
  const lines: SummaryLine[] = [];
  for (const block of entry.blocks) {
    if (block.type === 'text' && block.text.trim() !== '') {
      const text =
        entry.speaker === 'ai'
          ? `Assistant: ${clip(block.text, ASSISTANT_CHARS)}`
          : `User: ${clip(block.text, first ? FIRST_USER_CHARS : USER_CHARS)}`;
      lines.push({ text });
    } else if (block.type === 'tool_response') {
      const line = typeof block.result === 'string' ? block.result : `[${block.toolName} result]`;
      lines.push(toolLine(line, context.outputs.get(block.callId), context.mentions));
    }
  }
  return lines;
}

/** The summary text and the originals its recall ids name. */
export function compactionSummary(input: SummaryInput): CompactionSummary {
  const { removed } = input;
  const candidates = orderedSummaryCandidates(removed, removed.length, {
    workspaceRoot: '',
    pointerStyle: 'recall',
    shellFileOps: true,
  });
  const { head } = applySummaries(removed, candidates);
  const messagesId = recallIdOfMessages(input.removedRaw);
  const recall: RecallEntry[] = [{ id: messagesId, text: input.removedRaw }];
  for (const entry of removed) {
    for (const block of entry.blocks) {
      if (block.type !== 'tool_response') continue;
      recall.push({ id: recallIdOfResponse(block), text: originalResponseText(block) });
    }
  }
  const context: Context = {
    outputs: outputsByCall(removed, input.history),
    mentions: agentMentions(input.history),
  };
  let firstHuman = true;
  const lines = head.flatMap((entry) => {
    const first = firstHuman && entry.speaker === 'human';
    if (first) firstHuman = false;
    return entryLines(entry, first, context);
  });
  const what =
    input.purpose === 'working-budget'
      ? `Dense compacted the ${removed.length} earliest messages of this conversation to keep it within its working budget.`
      : `Dense summarized the ${removed.length} messages of this conversation so far, deterministically (no model call).`;
  const header = `[${what} Run \`dense recall ${messagesId}\` for them verbatim; \`dense recall <id>\` with any recall id below gives that exact original.]`;
  const trail = renderArtifactTrail(
    collectArtifacts(removed, ''),
    latestTodos(input.history),
    Math.floor(input.budgetChars / 3),
  );
  const turnsBudget = Math.max(0, input.budgetChars - header.length - trail.length);
  const text = [
    header,
    ...fitSummaryLines(lines, turnsBudget),
    ...(trail === '' ? [] : ['', trail]),
  ];
  return { text: text.join('\n'), recall };
}
