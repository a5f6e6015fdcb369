/**
 * Where a wire compaction may cut, per wire API: the leading items it never replaces (OpenAI
 * requests: tool definitions, developer instructions and the task the client sends first), then
 * the turns after them as runs of model output and client input, so a cut never separates a tool
 * call from its output. Also what replaces the compacted items: the summary as one wire item of
 * that API, after the pinned items (instructions, unknown items) the compacted span held, which go
 * out unchanged.
 */
import { member, stringMember, type JsonNode } from '../wire/jsonSpans.js';
import type { WireApi, WireHistory } from '../wire/wireHistory.js';
import type { TextSlices } from '../wire/segmentedText.js';

export type TurnRole = 'assistant' | 'user';

export interface CompactionTurn {
  /** Index of the turn's first wire item. */
  readonly first: number;
  readonly role: TurnRole;
}

export interface CompactionLayout {
  /** Wire items before this index always go out unchanged. */
  readonly start: number;
  /** The turns from `start` on, in order; a cut lands on a turn's first item. */
  readonly turns: readonly CompactionTurn[];
  /** Pinned items from `start` on (ascending): a compaction that covers one carries it whole. */
  readonly pinned: readonly number[];
  /**
   * What replaces the items `[start, cut)` of `original` (JSON text of one or more wire items): the
   * pinned items among them, unchanged and in order, then the summary as one wire item of the
   * request's API.
   */
  readonly replacement: (summary: string, region: CompactedRegion) => string;
}

/** The request a compaction cuts, and the item after the last one it replaces. */
export interface CompactedRegion {
  /** The request text the layout's item indices refer to. */
  readonly original: TextSlices;
  readonly cut: number;
}

/** A wire item: model output, client input, or one a compaction never replaces. */
type ItemClass = 'model' | 'client' | 'pinned';

const MODEL_ITEMS = new Set([
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'reasoning',
  'web_search_call',
  'file_search_call',
  'computer_call',
  'image_generation_call',
  'code_interpreter_call',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
]);
const CLIENT_ITEMS = new Set([
  'function_call_output',
  'custom_tool_call_output',
  'local_shell_call_output',
  'computer_call_output',
  'mcp_approval_response',
]);

function roleClass(role: string | undefined): ItemClass {
  if (role === 'assistant') return 'model';
  return role === 'user' || role === 'tool' ? 'client' : 'pinned';
}

/** A Responses `input` item's class; instructions, tool lists and unknown items are pinned. */
function responsesClass(item: JsonNode): ItemClass {
  const type = stringMember(item, 'type') ?? (member(item, 'role') ? 'message' : '');
  if (type === 'message') return roleClass(stringMember(item, 'role'));
  if (MODEL_ITEMS.has(type)) return 'model';
  return CLIENT_ITEMS.has(type) ? 'client' : 'pinned';
}

/**
 * Runs of same-class items from `start`, as turns. A pinned item belongs to the turn it falls in,
 * so a cut never parts a model run (reasoning from its call) around it.
 */
function turnsOf(classes: readonly ItemClass[], start: number): CompactionTurn[] {
  const turns: CompactionTurn[] = [];
  for (let index = start; index < classes.length; index++) {
    const current = turns.at(-1)?.role;
    const itemClass = classes[index];
    const role: TurnRole =
      itemClass === 'model' ? 'assistant' : itemClass === 'client' ? 'user' : (current ?? 'user');
    if (current !== role) turns.push({ first: index, role });
  }
  return turns;
}

/**
 * The layout of an OpenAI request (Chat Completions `messages` or Responses `input`): nothing
 * before the first model output is ever replaced, and a pinned item after it (a developer message
 * sent mid-session) is kept by the replacement, so it never freezes the history before it.
 */
export function openaiLayout(
  root: JsonNode,
  api: 'openai-chat' | 'openai-responses',
): CompactionLayout {
  const chat = api === 'openai-chat';
  const list = member(root, chat ? 'messages' : 'input');
  const items = list?.kind === 'array' ? list.items : [];
  const classes = items.map((item) =>
    chat ? roleClass(stringMember(item, 'role')) : responsesClass(item),
  );
  const firstModel = classes.indexOf('model');
  const start = firstModel === -1 ? classes.length : firstModel;
  const summaryItem = chat ? chatSummary : responsesSummary;
  const pinned: number[] = [];
  for (let i = start; i < classes.length; i++) if (classes[i] === 'pinned') pinned.push(i);
  return {
    start,
    turns: turnsOf(classes, start),
    pinned,
    replacement: (summary, { original, cut }) => {
      const kept = items.filter((_, i) => i >= start && i < cut && classes[i] === 'pinned');
      const raws = kept.map((item) => original.slice(item.start, item.end));
      return [...raws, summaryItem(summary)].join(',');
    },
  };
}

/** The layout of an Anthropic Messages request: every message is a turn, none is pinned. */
function anthropicLayout(wire: WireHistory): CompactionLayout {
  return {
    start: 0,
    turns: wire.history.map((entry, first) => ({
      first,
      role: entry.speaker === 'ai' ? 'assistant' : 'user',
    })),
    pinned: [],
    replacement: (summary) => anthropicSummary(summary),
  };
}

/** The layout for `api`; `root` is the request's parse. */
export function compactionLayout(
  api: WireApi,
  wire: WireHistory,
  root: JsonNode,
): CompactionLayout {
  return api === 'anthropic' ? anthropicLayout(wire) : openaiLayout(root, api);
}

function anthropicSummary(summary: string): string {
  return JSON.stringify({ role: 'user', content: [{ type: 'text', text: summary }] });
}

function chatSummary(summary: string): string {
  return JSON.stringify({ role: 'user', content: summary });
}

function responsesSummary(summary: string): string {
  return JSON.stringify({
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text: summary }],
  });
}
