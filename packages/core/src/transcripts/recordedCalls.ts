/**
 * What a transcript file holds, counted from its raw records by rules as plain as a jq query over
 * the file: the model's replies and the tool calls in them. The counters never go through an
 * importer's mapping (no call matching, no tool aliases, no merging), so `checkImport` can compare
 * what an importer produced with what was there and notice a mapping that lost calls.
 */
import { joinedText, list, obj, str, type Json } from './jsonValues.js';
import type { RecordedCalls } from './types.js';

/** A running count (the streamed formats add one record at a time). */
export class CallTally {
  modelCalls = 0;
  toolCalls = 0;

  add(modelCalls: number, toolCalls: number): void {
    this.modelCalls += modelCalls;
    this.toolCalls += toolCalls;
  }

  get calls(): RecordedCalls {
    return { modelCalls: this.modelCalls, toolCalls: this.toolCalls };
  }
}

/**
 * SWE-agent `.traj` history: each assistant message of the main agent (the one that speaks first)
 * that is not a demonstration is a reply; its tool calls are its `tool_calls`, or else one action
 * when it carries a non-empty `action` or a fenced block.
 */
export function countSweAgentCalls(history: readonly unknown[]): RecordedCalls {
  const mainAgent = obj(history[0]).agent;
  const tally = new CallTally();
  for (const item of history) {
    const message = obj(item);
    if (message.role !== 'assistant' || message.is_demo === true) continue;
    if (message.agent !== undefined && message.agent !== mainAgent) continue;
    const native = list(message.tool_calls).length;
    const action = str(message.action) ?? '';
    const fenced = /```[^\n]*\n/.test(joinedText(message.content));
    tally.add(1, native > 0 ? native : action.trim() !== '' || fenced ? 1 : 0);
  }
  return tally.calls;
}

/** OpenHands actions that are bookkeeping, not the model's. */
const OPENHANDS_BOOKKEEPING = new Set(['system', 'recall', 'change_agent_state', 'null']);
/** OpenHands actions (and function names) that end or answer a turn without running a tool. */
const OPENHANDS_TEXT = new Set(['message', 'finish', 'reject']);

/**
 * OpenHands events (legacy `[action, observation]` pairs flattened): each distinct model response
 * named in `tool_call_metadata` is a reply, with the tool calls it lists (`finish` ends the session
 * and runs nothing). Agent actions without that metadata are one reply each, and a tool call when
 * they are not a message, finish or reject. Legacy events carry no `source`: a message before the
 * agent's first action is the user's.
 */
export function countOpenHandsCalls(events: readonly unknown[]): RecordedCalls {
  const tally = new CallTally();
  const responses = new Set<string>();
  let agentActed = false;
  const flat = events.flatMap((item): readonly unknown[] =>
    Array.isArray(item) ? list(item) : [item],
  );
  for (const event of flat) {
    const action = str(obj(event).action);
    if (action === undefined || OPENHANDS_BOOKKEEPING.has(action)) continue;
    const source = str(obj(event).source) ?? (agentActed || action !== 'message' ? 'agent' : '');
    if (source !== 'agent') continue;
    agentActed = true;
    const response = obj(obj(obj(event).tool_call_metadata).model_response);
    const id = str(response.id);
    if (id === undefined) {
      tally.add(1, OPENHANDS_TEXT.has(action) ? 0 : 1);
      continue;
    }
    if (responses.has(id)) continue;
    responses.add(id);
    const message = obj(obj(list(response.choices)[0]).message);
    const calls = list(message.tool_calls).filter(
      (call) => !OPENHANDS_TEXT.has(str(obj(obj(call).function).name) ?? ''),
    );
    tally.add(1, calls.length);
  }
  return tally.calls;
}

/**
 * Codex rollout lines, one at a time (protocol items, under `response_item` or bare). A reply is a
 * run of the model's items (reasoning, assistant messages, calls) that no call output or user
 * message interrupts; its tool calls are its items whose type ends in `_call`. A `compacted` line
 * ends a reply too; the items of its replacement history restate earlier ones and are not counted.
 * The display log is not counted.
 */
export class CodexCallCounter {
  private readonly tally = new CallTally();
  private inReply = false;

  add(record: Json): void {
    if (record.type === 'compacted') this.inReply = false;
    const item = record.type === 'response_item' ? obj(record.payload) : record;
    const type = str(item.type) ?? '';
    const call = type.endsWith('_call');
    if (call || type === 'reasoning' || (type === 'message' && item.role === 'assistant')) {
      this.tally.add(this.inReply ? 0 : 1, call ? 1 : 0);
      this.inReply = true;
    } else if (type.endsWith('_call_output') || (type === 'message' && item.role === 'user')) {
      this.inReply = false;
    }
  }

  /** Whether the last line read was part of a reply that no output or user message has ended. */
  get replying(): boolean {
    return this.inReply;
  }

  get calls(): RecordedCalls {
    return this.tally.calls;
  }
}

/** gemini-cli chat recording: each `gemini` message is a reply, with its `toolCalls`. */
export function countGeminiRecordingCalls(messages: readonly unknown[]): RecordedCalls {
  const tally = new CallTally();
  for (const message of messages) {
    if (obj(message).type === 'gemini') tally.add(1, list(obj(message).toolCalls).length);
  }
  return tally.calls;
}

/** gemini-cli `/chat share` JSON: each `model` content is a reply; `functionCall` parts are calls. */
export function countGeminiContentCalls(contents: readonly unknown[]): RecordedCalls {
  const tally = new CallTally();
  for (const content of contents) {
    if (obj(content).role !== 'model') continue;
    const calls = list(obj(content).parts).filter((part) => obj(part).functionCall !== undefined);
    tally.add(1, calls.length);
  }
  return tally.calls;
}

const MARKDOWN_MODEL_HEADER = /^(?:\S+\s+)?## MODEL(?:\s+\S+)?$|^\*\*model\*\*:$/;
const MARKDOWN_TOOL_COMMAND = /\*\*Tool Command\*\*:\r?\n```json/g;

/**
 * gemini-cli `/chat share` markdown, as grep would: each model header line is a reply, each
 * `**Tool Command**:` followed by a JSON fence (it may end a line of text) a call.
 */
export function countGeminiMarkdownCalls(text: string): RecordedCalls {
  const replies = text.split(/\r?\n/).filter((line) => MARKDOWN_MODEL_HEADER.test(line.trim()));
  return {
    modelCalls: replies.length,
    toolCalls: [...text.matchAll(MARKDOWN_TOOL_COMMAND)].length,
  };
}

/**
 * One line of a Dense session, as parsed JSON (undefined for a line that is not JSON): a content
 * line whose entry is the model's is a reply, with its `tool_call` blocks. Anything else counts
 * nothing.
 */
export function countDenseSessionLine(value: unknown): RecordedCalls {
  const content = obj(obj(value).content);
  if (obj(value).kind !== 'content' || content.speaker !== 'ai') {
    return { modelCalls: 0, toolCalls: 0 };
  }
  const calls = list(content.blocks).filter((block) => obj(block).type === 'tool_call');
  return { modelCalls: 1, toolCalls: calls.length };
}
