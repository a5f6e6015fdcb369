/**
 * Dense's deterministic summary of the turns a wire compaction removes, in the order its budget
 * serves them: every message the user typed in those turns, verbatim (`pinnedUserMessages`; a
 * huge paste as head and tail with a recall id), the skills the agent loaded (`loadedSkills`), the
 * client's task list as of the cut (`clientTaskList`), what was tried and failed and the artifact
 * trail, then the turns as one line each (tool results as high-density's one-line summaries
 * naming their recall ids, with the specifics the room left allows; an image as one trace line
 * naming its own, `compactedImages`).
 * The user's words are kept even past the budget, and the header says so. A function of the
 * removed turns only; no LLM; the same turns always give the same text.
 */
import {
  toolCallsById,
  type IContent,
  type ToolCallBlock,
} from '../../services/history/IContent.js';
import { applySummaries } from '../../core/compression/density/compress/compressionPlan.js';
import { orderedSummaryCandidates } from '../../core/compression/density/compress/summaryOrder.js';
import { clip } from '../../core/compression/density/compress/summaryText.js';
import { codeNames, rankedSpecifics } from './outputSpecifics.js';
import { responseFailed } from '../../core/compression/density/compress/toolResponseSummary.js';
import { agentMentions, type AgentMentions } from './agentMentions.js';
import type { SummaryLine } from './fitSummaryLines.js';
import { bodySections } from './summaryBody.js';
import { collectArtifacts } from '../../core/compression/artifactTrail/collectArtifacts.js';
import { renderArtifactTrail } from '../../core/compression/artifactTrail/renderArtifactTrail.js';
import { recallIdOfResponse, recallIdOfText } from '../../core/compression/recallPointers.js';
import {
  HUGE_PASTE_CHARS,
  recallIdOfUserMessage,
  renderPinned,
  userMessagesOf,
  usersMessages,
} from '../../core/compression/pinnedUserMessages.js';
import { clientTaskList } from '../../core/compression/artifactTrail/clientTaskList.js';
import { formatTodoList } from '../../tools/todo/formatTodoList.js';
import type { Todo } from '../../tools/todo-schemas.js';
import type { RecallEntry } from '../../recall/RecallArchive.js';
import { compactedImages, type CompactedImages } from '../images/compactedImages.js';
import { isDenseText, summarizedTranscriptIds } from '../../core/compression/denseText.js';
import { subagentReports, type ReportsContext } from './subagentReports.js';
import { loadedSkills } from './loadedSkills.js';
import { listedNames } from './listedNames.js';
import { carriedVocabulary, recurringNames } from './recurringNames.js';
import { toolKindOf } from '../../core/compression/density/compress/toolSummaryFacts.js';
import { outputsByCall, type CondensedOutput } from './condensedOutputs.js';

const ASSISTANT_CHARS = 300;
/** The skills the agent loaded may take up to this share of the budget. */
const SKILLS_SHARE = 1 / 10;
/**
 * The names directory listings showed (`listedNames`) take up to this share of the budget beside
 * it: the rest of the summary is laid out as without them.
 */
const LISTED_SHARE = 1 / 25;
/** The names many removed outputs and writes showed (`recurringNames`) take this share, beside it. */
const RECURRING_SHARE = 1 / 25;

export interface SummaryInput {
  /** The removed turns, oldest first. */
  readonly removed: readonly IContent[];
  /** The whole conversation (where the agent mentioned an output's specifics later). */
  readonly history: readonly IContent[];
  /** Raw text of the removed messages, resolvable as one recall id. */
  readonly removedRaw: string;
  /**
   * `removedRaw` as the archive stores it: each message and separator a piece (`regionPieces`),
   * so a later, longer region writes only its new messages.
   */
  readonly removedPieces?: readonly string[];
  /** Characters the summary may take (the user's messages and the task list go in whole). */
  readonly budgetChars: number;
  /** Why the summary is made: the working budget, or the client's own compaction request. */
  readonly purpose: 'working-budget' | 'client-compaction';
  /** The task list as the agent's own store has it (absent or empty: the task calls removed). */
  readonly tasks?: readonly Todo[];
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

/** A summary line with where its entry sits and where the agent last used its output. */
type PlacedLine = SummaryLine & {
  /** The position of the line's entry in the whole conversation. */
  readonly at?: number;
  /** The position of the agent's latest mention of one of its specifics after it. */
  readonly usedAt?: number;
};

/**
 * A tool output's summary line with its specifics, best first: those the agent mentioned after
 * the output lead, and the latest such mention is the line's last use.
 */
function toolLine(
  line: string,
  output: CondensedOutput | undefined,
  mentions: AgentMentions,
): PlacedLine {
  if (output === undefined) return { text: line };
  let usedAt = -1;
  const mentioned = (token: string) => {
    const at = mentions.latest(token);
    if (at <= output.position) return false;
    usedAt = Math.max(usedAt, at);
    return true;
  };
  const specifics = rankedSpecifics({ ...output, shown: line, mentioned });
  return { text: line, specifics, ...(usedAt < 0 ? {} : { usedAt }) };
}

/**
 * The lines with each output's last use as a line index (`SummaryLine.lastUse`): the last line
 * whose entry came at or before that use, or the line count when it came after every line.
 */
function withLastUse(lines: readonly PlacedLine[]): SummaryLine[] {
  const starts: number[] = [];
  let at = -1;
  for (const line of lines) {
    at = line.at ?? at;
    starts.push(at);
  }
  return lines.map(({ text, specifics, usedAt, failed }) => {
    const base = {
      text,
      ...(specifics === undefined ? {} : { specifics }),
      ...(failed === true ? { failed } : {}),
    };
    if (usedAt === undefined) return base;
    // The lines' entries come in conversation order: the count of those at or before the use.
    let lastUse = 0;
    let past = lines.length;
    while (lastUse < past) {
      const mid = (lastUse + past) >>> 1;
      if ((starts[mid] as number) <= usedAt) lastUse = mid + 1;
      else past = mid;
    }
    return { ...base, lastUse };
  });
}

interface Context {
  readonly outputs: ReadonlyMap<string, CondensedOutput>;
  readonly mentions: AgentMentions;
  /** Outputs the reports section shows (whole, or head and names): no specifics on their line. */
  readonly reported: ReadonlySet<string>;
  /** An entry's position in the whole conversation (-1: not found there). */
  readonly positionOf: (entry: IContent) => number;
  /** The removed tool calls by id. */
  readonly calls: ReadonlyMap<string, ToolCallBlock>;
}

/**
 * One entry's lines: the model's text clipped, tool outputs with their specifics, and where the
 * user spoke, a pointer to the message in the pinned section (client context alone says nothing).
 */
function entryLines(
  entry: IContent,
  /** The removed entry `entry` summarizes (its blocks in the same order, outputs whole). */
  original: IContent,
  messageNumber: (text: string) => number,
  context: Context,
): PlacedLine[] {
  const lines: PlacedLine[] = [];
  for (const words of usersMessages(entry)) {
    lines.push({ text: `User: [message ${messageNumber(words)} above]` });
  }
  for (const [index, block] of entry.blocks.entries()) {
    if (block.type === 'text' && entry.speaker === 'ai' && block.text.trim() !== '') {
      lines.push({ text: `Assistant: ${clip(block.text, ASSISTANT_CHARS)}` });
    } else if (block.type === 'tool_response') {
      const line = typeof block.result === 'string' ? block.result : `[${block.toolName} result]`;
      const output = context.reported.has(block.callId)
        ? undefined
        : context.outputs.get(block.callId);
      const placed = toolLine(line, output, context.mentions);
      const whole = original.blocks[index];
      const failed =
        whole?.type === 'tool_response' && responseFailed(whole, context.calls.get(block.callId));
      lines.push(failed ? { ...placed, failed } : placed);
    }
  }
  const at = context.positionOf(original);
  return at < 0 ? lines : lines.map((line) => ({ ...line, at }));
}

/** Recall entries for the huge pastes the pinned section cuts. */
function pasteRecalls(messages: readonly string[]): RecallEntry[] {
  return messages
    .filter((text) => text.length > HUGE_PASTE_CHARS)
    .map((text) => ({ id: recallIdOfUserMessage(text), text }));
}

/**
 * The recall ids of the turns that earlier Dense summaries up to the cut replaced (a client that
 * keeps Dense's answer as its history sends it back, and may drop it at its next compaction):
 * named again, one id each, so every turn of the conversation stays one recall away.
 */
function earlierTranscripts(input: SummaryInput): string {
  const last = input.removed.at(-1);
  const through = last === undefined ? -1 : input.history.lastIndexOf(last);
  const upToCut = through < 0 ? input.removed : input.history.slice(0, through + 1);
  const ids = new Set<string>();
  for (const entry of upToCut) {
    if (entry.speaker === 'ai') continue;
    for (const block of entry.blocks) {
      if (block.type === 'text') for (const id of summarizedTranscriptIds(block.text)) ids.add(id);
    }
  }
  if (ids.size === 0) return '';
  const named = [...ids].map((id) => `\`dense recall ${id}\``).join(', ');
  return ` The turns before Dense's earlier compaction${ids.size === 1 ? '' : 's'} of this conversation: ${named}.`;
}

/**
 * Earlier Dense summaries before the removed turns, in the messages a client keeps itself (Codex
 * keeps its leading items and drops the summary among them at its next compaction): the task list
 * and the trail they carry are read as the removed turns' own, or they would end with them.
 */
function summariesBefore(input: SummaryInput, positionOf: (entry: IContent) => number): IContent[] {
  const first = input.removed[0];
  const start = first === undefined ? -1 : positionOf(first);
  if (start <= 0) return [];
  return input.history
    .slice(0, start)
    .filter(
      (entry) =>
        entry.speaker !== 'ai' &&
        entry.blocks.some((block) => block.type === 'text' && isDenseText(block.text)),
    );
}

/** The task list the summary shows: the agent's store's, else the one `entries` build. */
function tasksOf(input: SummaryInput, entries: readonly IContent[]): readonly Todo[] {
  return input.tasks !== undefined && input.tasks.length > 0
    ? input.tasks
    : clientTaskList(entries);
}

/** What the turns' lines are read against: the removed outputs and calls, the agent's mentions. */
function lineContext(input: SummaryInput): Omit<Context, 'reported'> {
  const positions = new Map(input.history.map((entry, position) => [entry, position]));
  const positionOf = (entry: IContent) => positions.get(entry) ?? -1;
  const calls = toolCallsById(input.removed);
  return {
    outputs: outputsByCall(input.removed, positionOf, calls),
    mentions: agentMentions(input.history),
    positionOf,
    calls,
  };
}

/** The originals the summary's recall ids name: the whole, images, pastes and each tool output. */
function recallEntries(
  input: SummaryInput,
  messagesId: string,
  messages: readonly string[],
  images: CompactedImages,
): RecallEntry[] {
  const pieces = input.removedPieces;
  const recall: RecallEntry[] = [
    { id: messagesId, text: input.removedRaw, ...(pieces === undefined ? {} : { pieces }) },
    ...images.recall,
    ...pasteRecalls(messages),
  ];
  for (const entry of input.removed) {
    for (const block of entry.blocks) {
      if (block.type !== 'tool_response') continue;
      recall.push({ id: recallIdOfResponse(block), text: images.originalOf(block) });
    }
  }
  return recall;
}

/** What the reports are read against: the removed calls; the agent's later mentions lead. */
function reportsContext(context: Omit<Context, 'reported'>): ReportsContext {
  return {
    calls: context.calls,
    mentioned: (token, entry) => context.mentions.latest(token) > context.positionOf(entry),
  };
}

/**
 * `text` and, after it, beside its budget: the names the removed turns' listings showed, then
 * the names many of their outputs and the agent's writes showed and the agent used, each section
 * without what the text before it shows.
 */
function withNamesBeside(
  text: string,
  input: SummaryInput,
  context: Omit<Context, 'reported'>,
): string {
  const listedRoom = Math.floor(input.budgetChars * LISTED_SHARE);
  const listed = listedNames(input.removed, context.calls, listedRoom, (name) =>
    text.includes(name),
  );
  const withListed = listed === '' ? text : `${text}\n\n${listed}`;
  // The names the text above shows, read once (a whole name, not a part of a longer one).
  const shownNames = codeNames(withListed);
  const recurring = recurringNames({
    outputs: context.outputs.values(),
    writes: [...context.calls.values()].filter(
      (call) => toolKindOf(call.name, call.parameters) === 'write',
    ),
    mentions: context.mentions,
    room: Math.floor(input.budgetChars * RECURRING_SHARE),
    shown: (name) => shownNames.has(name),
    carried: carriedVocabulary(input.removed),
  });
  return recurring === '' ? withListed : `${withListed}\n\n${recurring}`;
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
  const messages = userMessagesOf(removed);
  const images = compactedImages(removed, input.removedRaw);
  const recall = recallEntries(input, messagesId, messages, images);
  const context = lineContext(input);
  const numbers = new Map(messages.map((text, index) => [text, index + 1]));
  const messageNumber = (text: string) => numbers.get(text) ?? 0;
  // The body may be laid out twice (summaryBody.ts); the lines for the same reports are made once.
  const made = new Map<string, readonly SummaryLine[]>();
  const lines = (reported: ReadonlySet<string>) => {
    const key = [...reported].sort().join('\n');
    let kept = made.get(key);
    if (kept === undefined) {
      const lineContext: Context = { ...context, reported };
      kept = withLastUse(
        images.withTraces(
          head.map((entry, index) =>
            entryLines(entry, removed[index] ?? entry, messageNumber, lineContext),
          ),
        ),
      );
      made.set(key, kept);
    }
    return kept;
  };
  const pinned = renderPinned(messages);
  const read = [...summariesBefore(input, context.positionOf), ...removed];
  const tasks = tasksOf(input, read);
  const artifacts = collectArtifacts(read, '');
  const what =
    input.purpose === 'working-budget'
      ? `Dense compacted the ${removed.length} earliest messages of this conversation to keep it within its working budget.`
      : `Dense summarized the ${removed.length} messages of this conversation so far, deterministically (no model call).`;
  // The user's words and the task list are never cut: past the budget they bend it, said here.
  const pinnedChars = pinned.length + (tasks.length === 0 ? 0 : formatTodoList(tasks).length);
  const over =
    pinnedChars > input.budgetChars
      ? ` The user's messages and the task list alone take ${pinnedChars.toLocaleString('en-US')} characters, over this summary's ${input.budgetChars.toLocaleString('en-US')}: kept whole.`
      : '';
  const header = `[${what} Run \`dense recall ${messagesId} --grep PATTERN\` to find a detail in them (\`--lines A:B\` reads a range; with no option, the whole transcript); \`dense recall <id>\` with any recall id below gives that exact original.${earlierTranscripts(input)}${over}]`;
  const skills = loadedSkills(removed, Math.floor(input.budgetChars * SKILLS_SHARE));
  recall.push(...skills.recall);
  const pinnedAll = [pinned, skills.text].filter((part) => part !== '').join('\n\n');
  const body = bodySections({
    budgetChars: input.budgetChars,
    left: input.budgetChars - header.length - pinnedAll.length,
    pinnedSeparator: pinnedAll === '' ? 0 : 2,
    trail: (chars, shown) => renderArtifactTrail(artifacts, tasks, chars, shown),
    reports: (chars) => subagentReports(removed, chars, reportsContext(context)),
    lines,
  });
  const text = [header, ...(pinnedAll === '' ? [] : ['', pinnedAll]), ...body].join('\n');
  return { text: withNamesBeside(text, input, context), recall };
}
