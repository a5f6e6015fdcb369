/**
 * A loopback Anthropic Messages upstream scripted as a long Claude Code session: Read
 * `files[0]`, `files[1]`, … one per turn, then answer. It reports usage from the real size of each
 * prompt (characters / 4, all uncached), as a real API would, so Claude Code's own auto-compaction
 * fires when the prompt nears its threshold. It answers Claude Code's compaction request with a
 * short summary and counts it. The next step is the one after the highest step whose result this
 * or an earlier request held (a model remembers what a summary tells it), so the script survives
 * the client's compaction and Dense's, which may leave no step's result in the request. After the last Read, when
 * the request names a recall id for `files[0]` (Dense's summary of a compaction does), the model
 * runs `dense recall <id>` through Bash before it answers. With `tasks`, the model first keeps a
 * task list the way Claude Code 2.x does (one `TaskCreate` per task, before the first Read) and
 * marks the first task completed with `TaskUpdate` once half the files are read.
 */
import path from 'node:path';
import {
  blocksOf,
  highestStepDone,
  isCompaction,
  offersRead,
  streamReply,
  type Block,
  type PromptUsage,
} from './claudeCodeWire.js';
import { parseBody, sendJson, startLoopbackUpstream, type Json } from './loopbackUpstream.js';

export interface LongSession {
  /** Absolute paths to Read, one per turn. */
  readonly files: readonly string[];
  readonly answer: string;
  /** Reported usage = prompt characters / 4 × this (default 1): tests what the client goes by. */
  readonly usageScale?: number;
  /** Task subjects to create with `TaskCreate` before the first Read. */
  readonly tasks?: readonly string[];
}

export interface MainRequest {
  readonly raw: string;
  /** Prompt tokens reported for it (characters / 4). */
  readonly reportedTokens: number;
}

export interface LongUpstream {
  readonly url: string;
  /** Main-loop requests (those offering Read), compaction requests excluded. */
  readonly main: readonly MainRequest[];
  /** Claude Code's own compaction requests that reached this upstream. */
  readonly compactionRequests: readonly string[];
  close(): Promise<void>;
}

export const STEP_ID = 'toolu_dense_step_';
export const RECALL_ID = 'toolu_dense_recall';
export const TASK_ID = 'toolu_dense_task_';

/** The usage of an uncached prompt of `promptTokens`. */
const uncachedUsage = (promptTokens: number): PromptUsage => ({
  input_tokens: promptTokens,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
});

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The recall id a summary line in the request names for a Read of `file`. */
function recallIdFor(raw: string, file: string): string | undefined {
  // Within one line of the summary (in the JSON body a line ends at an escaped `\n`): the trail
  // names each file on a line of its own, and a line without an id must not borrow the next one's.
  const sameLine = String.raw`(?:(?!\\n)[^\]])*`;
  const line = new RegExp(`/${escaped(path.basename(file))}${sameLine}recall id (r[0-9a-f]{10})`);
  return line.exec(raw)?.[1];
}

/** What the scripted model has seen done so far in its conversation. */
interface ScriptState {
  highestStep: number;
  recalled: boolean;
  /** Task calls made so far (creates, then the one update). */
  taskCalls: number;
}

/** The next task-list call, when one is due. */
function taskBlock(session: LongSession, state: ScriptState): Block | undefined {
  const tasks = session.tasks ?? [];
  const id = `${TASK_ID}${state.taskCalls}`;
  const subject = tasks[state.taskCalls];
  if (subject !== undefined) {
    state.taskCalls++;
    const input = { subject, description: `${subject} (scripted)`, activeForm: subject };
    return { type: 'tool_use', id, name: 'TaskCreate', input };
  }
  const half = Math.floor(session.files.length / 2);
  if (tasks.length === 0 || state.taskCalls > tasks.length || state.highestStep < half) {
    return undefined;
  }
  state.taskCalls++;
  return { type: 'tool_use', id, name: 'TaskUpdate', input: { taskId: '1', status: 'completed' } };
}

function nextBlock(session: LongSession, state: ScriptState, body: Json, raw: string): Block {
  state.highestStep = Math.max(state.highestStep, highestStepDone(body, STEP_ID));
  const task = taskBlock(session, state);
  if (task !== undefined) return task;
  const step = state.highestStep + 1;
  const file = session.files[step];
  if (file !== undefined) {
    return { type: 'tool_use', id: `${STEP_ID}${step}`, name: 'Read', input: { file_path: file } };
  }
  state.recalled ||= blocksOf(body).some(
    (block) => block.type === 'tool_result' && block.tool_use_id === RECALL_ID,
  );
  const id = state.recalled ? undefined : recallIdFor(raw, session.files[0] ?? '');
  if (id === undefined) return { type: 'text', text: session.answer };
  const input = { command: `dense recall ${id}`, description: 'Recall the first file' };
  return { type: 'tool_use', id: RECALL_ID, name: 'Bash', input };
}

export async function startLongUpstream(session: LongSession): Promise<LongUpstream> {
  const main: MainRequest[] = [];
  const compactionRequests: string[] = [];
  const state: ScriptState = { highestStep: -1, recalled: false, taskCalls: 0 };
  const server = await startLoopbackUpstream(({ url, raw }, response) => {
    const promptTokens = Math.ceil((raw.length / 4) * (session.usageScale ?? 1));
    if (url.startsWith('/v1/messages/count_tokens')) {
      sendJson(response, 200, { input_tokens: promptTokens });
      return;
    }
    const body = parseBody(raw);
    let block: Block = { type: 'text', text: 'Side reply' };
    if (offersRead(body) && isCompaction(body)) {
      compactionRequests.push(raw);
      block = {
        type: 'text',
        text: '<analysis>mock</analysis>\n\n<summary>Mock summary: reading the files one by one.</summary>',
      };
    } else if (offersRead(body)) {
      main.push({ raw, reportedTokens: promptTokens });
      block = nextBlock(session, state, body, raw);
    }
    streamReply(response, body.model, block, uncachedUsage(promptTokens));
  });
  return { ...server, main, compactionRequests };
}
