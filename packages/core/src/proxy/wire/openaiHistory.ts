/**
 * Reads OpenAI requests into a WireHistory: Chat Completions (`messages`, assistant `tool_calls`,
 * `tool` messages) and Responses (`input` items: message, function_call, function_call_output,
 * custom_tool_call(_output), local_shell_call(_output)). Item types it does not know make the
 * request unsupported (forwarded unchanged). A tool output counts as failed by the transcript
 * importer's rule for Codex outputs (exit code, rejected or unverified patch), so a failed write
 * never makes a read stale. A Codex `exec` script is read as the shell command or patches inside
 * it when it is understood, and its output fails unless the script completed (and, for a shell
 * command that changes files, showed exit code 0, or for a shell `apply_patch` its success).
 */
import type { ContentBlock, IContent } from '../../services/history/IContent.js';
import { textBlock, toolResponseBlock } from '../../services/history/IContent.js';
import {
  canonicalCalls,
  canonicalExecCalls,
  canonicalIds,
  type ExecCallFacts,
} from './canonicalTools.js';
import { member, stringMember, type JsonNode } from './jsonSpans.js';
import { freshReaderState, startMessage, type ReaderState, messageSpans } from './readerState.js';
import type { TextSlices } from './segmentedText.js';
import { readOutput } from '../../transcripts/importers/codexRollout.js';
import { shellPatchOutcome } from '../../transcripts/applyPatchOutput.js';
import { execCallFailed, readExecOutput } from '../../transcripts/readExecOutput.js';
import {
  conversationIdentity,
  unsupported,
  type ReadOutcome,
  type WireApi,
} from './wireHistory.js';

interface Reader extends ReaderState {
  readonly text: TextSlices;
}

const TEXT_PARTS = new Set(['text', 'input_text', 'output_text']);
const OTHER_PARTS = new Set([
  'image_url',
  'input_audio',
  'file',
  'refusal',
  'input_image',
  'input_file',
]);
const OPAQUE_ITEMS = new Set([
  'additional_tools',
  'reasoning',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'image_generation_call',
  'code_interpreter_call',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'item_reference',
  'compaction',
]);

/** Plain text of a content value: a string, or parts of which only text ones are read. */
function contentText(node: JsonNode | undefined): { text: string; textOnly: boolean } | string {
  if (node === undefined || node.kind === 'null') return { text: '', textOnly: true };
  if (node.kind === 'string') return { text: node.value, textOnly: true };
  if (node.kind !== 'array') return 'content is neither text nor parts';
  const parts: string[] = [];
  let textOnly = true;
  for (const part of node.items) {
    const type = stringMember(part, 'type') ?? '';
    if (TEXT_PARTS.has(type)) parts.push(stringMember(part, 'text') ?? '');
    else if (OTHER_PARTS.has(type)) textOnly = false;
    else return `unknown content part type '${type}'`;
  }
  return { text: parts.join('\n'), textOnly };
}

function parseArguments(raw: string | undefined): unknown {
  if (raw === undefined) return {};
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function call(reader: Reader, id: string, name: string, parameters: unknown): ContentBlock[] {
  const calls = canonicalCalls(id, name, parameters);
  reader.callIds.set(id, canonicalIds(calls));
  reader.execCalls.delete(id);
  return calls;
}

/** A Codex `exec` custom tool call: the calls inside its script, when understood. */
function execCall(reader: Reader, id: string, code: string): ContentBlock[] {
  const { blocks, facts } = canonicalExecCalls(id, code);
  reader.callIds.set(id, canonicalIds(blocks));
  if (facts === undefined) reader.execCalls.delete(id);
  else reader.execCalls.set(id, facts);
  return blocks;
}

/** The text items of an output value (a plain string is one item). */
function textParts(node: JsonNode | undefined): string[] {
  if (node?.kind === 'string') return [node.value];
  if (node?.kind !== 'array') return [];
  return node.items.flatMap((part) =>
    TEXT_PARTS.has(stringMember(part, 'type') ?? '') ? [stringMember(part, 'text') ?? ''] : [],
  );
}

function result(
  reader: Reader,
  input: { callId: string; node: JsonNode | undefined; messageIndex: number },
): ContentBlock[] | string {
  const content = contentText(input.node);
  if (typeof content === 'string') return content;
  if (content.textOnly && input.node !== undefined && input.node.kind !== 'null') {
    reader.sites.push({
      callId: input.callId,
      messageIndex: input.messageIndex,
      blockIndex: 0,
      start: input.node.start,
      end: input.node.end,
    });
  }
  const refs = reader.callIds.get(input.callId) ?? [{ id: input.callId, name: '' }];
  const raw = input.node?.kind === 'string' ? input.node.value : content.text;
  const exec = reader.execCalls.get(input.callId);
  const failed =
    exec === undefined
      ? readOutput(raw, refs[0]?.name).failed
      : execFailed(exec, textParts(input.node));
  return refs.map((ref) =>
    toolResponseBlock({
      callId: ref.id,
      toolName: ref.name,
      result: content.text,
      ...(failed ? { error: content.text || 'error' } : {}),
    }),
  );
}

/**
 * Whether an understood `exec` call failed (`execCallFailed`); a script whose only file-changing
 * commands are shell patches succeeded when it completed and shows the patch applied, in any of
 * the forms Codex prints it (`shellPatchOutcome`).
 */
function execFailed(exec: ExecCallFacts, parts: readonly string[]): boolean {
  const output = readExecOutput(parts);
  if (!execCallFailed({ ...exec, output })) return false;
  if (!exec.shellPatchesOnly || !exec.needsExitCode || !output.completed) return true;
  return shellPatchOutcome(parts.slice(1)) !== 'applied';
}

function chatMessage(reader: Reader, message: JsonNode, index: number): IContent | string {
  const role = stringMember(message, 'role');
  if (role === undefined) return `message ${index} has no role`;
  if (role === 'tool') {
    const callId = stringMember(message, 'tool_call_id');
    if (callId === undefined) return 'tool message without tool_call_id';
    const blocks = result(reader, {
      callId,
      node: member(message, 'content'),
      messageIndex: index,
    });
    return typeof blocks === 'string' ? blocks : { speaker: 'tool', blocks };
  }
  const content = contentText(member(message, 'content'));
  if (typeof content === 'string') return content;
  const blocks: ContentBlock[] = [textBlock(content.text)];
  if (role === 'system' || role === 'developer') {
    return { speaker: 'human', blocks, metadata: { wireRole: role } };
  }
  const toolCalls = member(message, 'tool_calls');
  for (const toolCall of toolCalls?.kind === 'array' ? toolCalls.items : []) {
    const id = stringMember(toolCall, 'id');
    const fn = member(toolCall, 'function');
    const name = stringMember(fn, 'name');
    if (id === undefined || name === undefined) return 'tool call without id or name';
    blocks.push(...call(reader, id, name, parseArguments(stringMember(fn, 'arguments'))));
  }
  // A copy of exact length: the history is kept with the read, and `push` leaves spare capacity.
  return { speaker: role === 'assistant' ? 'ai' : 'human', blocks: blocks.slice() };
}

function callParameters(item: JsonNode, type: string): unknown {
  if (type === 'function_call') return parseArguments(stringMember(item, 'arguments'));
  if (type === 'custom_tool_call') return stringMember(item, 'input');
  return { command: '' };
}

const CALL_ITEMS = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);
const OUTPUT_ITEMS = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'local_shell_call_output',
]);

function callItem(reader: Reader, item: JsonNode, type: string, callId: string): ContentBlock[] {
  const name = stringMember(item, 'name') ?? 'shell';
  if (type === 'custom_tool_call' && name === 'exec') {
    return execCall(reader, callId, stringMember(item, 'input') ?? '');
  }
  return call(reader, callId, name, callParameters(item, type));
}

function responsesItem(reader: Reader, item: JsonNode, index: number): IContent | string {
  const type = stringMember(item, 'type') ?? (member(item, 'role') ? 'message' : '');
  const callId = stringMember(item, 'call_id');
  if (type === 'message') {
    const content = contentText(member(item, 'content'));
    if (typeof content === 'string') return content;
    const role = stringMember(item, 'role');
    const blocks = [textBlock(content.text)];
    if (role === 'system' || role === 'developer') {
      return { speaker: 'human', blocks, metadata: { wireRole: role } };
    }
    return { speaker: role === 'assistant' ? 'ai' : 'human', blocks };
  }
  if (CALL_ITEMS.has(type) || OUTPUT_ITEMS.has(type)) {
    if (callId === undefined) return `${type} without call_id`;
    if (CALL_ITEMS.has(type))
      return { speaker: 'ai', blocks: callItem(reader, item, type, callId) };
    const blocks = result(reader, { callId, node: member(item, 'output'), messageIndex: index });
    return typeof blocks === 'string' ? blocks : { speaker: 'tool', blocks };
  }
  return OPAQUE_ITEMS.has(type) ? { speaker: 'ai', blocks: [] } : `unknown input item '${type}'`;
}

/**
 * Chat Completions or Responses request body (parsed with spans). Never throws on odd shapes. With
 * `state` (see `readerState.ts`) only the items from `state.from` on are read.
 */
export function readOpenAIRequest(
  text: TextSlices,
  root: JsonNode,
  api: WireApi,
  state: ReaderState = freshReaderState(),
): ReadOutcome {
  const isChat = api === 'openai-chat';
  const list = member(root, isChat ? 'messages' : 'input');
  if (list?.kind !== 'array')
    return unsupported(isChat ? 'no messages array' : 'input is not a list');
  const reader: Reader = { ...state, text };
  const instructions = member(root, 'instructions');
  const system = instructions === undefined ? '' : text.slice(instructions.start, instructions.end);
  const history = state.history;
  for (let index = state.from; index < list.items.length; index++) {
    startMessage(state, index);
    const node = list.items[index] as JsonNode;
    const entry = isChat ? chatMessage(reader, node, index) : responsesItem(reader, node, index);
    if (typeof entry === 'string') {
      return unsupported(entry, index > 0 ? conversationIdentity(system, history) : undefined);
    }
    history.push(entry);
  }
  const identity = conversationIdentity(system, history);
  return {
    kind: 'history',
    wire: {
      api,
      history,
      sites: state.sites,
      messageCount: list.items.length,
      messageSpans: messageSpans(state, list.items),
      identity,
    },
  };
}
