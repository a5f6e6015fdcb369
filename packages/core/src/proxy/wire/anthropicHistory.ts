/**
 * Reads an Anthropic Messages request (`POST /v1/messages`) into a WireHistory. Blocks density
 * never edits (thinking with its signature, images, documents, server tools) are kept out of the
 * decision history; a block type it does not know makes the whole request unsupported, so the
 * proxy forwards it unchanged.
 */
import type { ContentBlock, IContent, Speaker } from '../../services/history/IContent.js';
import { textBlock, toolResponseBlock } from '../../services/history/IContent.js';
import { canonicalCalls, canonicalIds } from './canonicalTools.js';
import { member, nodeValue, stringMember, type JsonNode } from './jsonSpans.js';
import { freshReaderState, startMessage, type ReaderState, messageSpans } from './readerState.js';
import type { TextSlices } from './segmentedText.js';
import { conversationIdentity, unsupported, type ReadOutcome } from './wireHistory.js';

/** Block types the proxy passes through without looking inside. */
const OPAQUE = new Set([
  'thinking',
  'redacted_thinking',
  'image',
  'document',
  'search_result',
  'server_tool_use',
  'mcp_tool_use',
  'mcp_tool_result',
  'container_upload',
]);

function isOpaque(type: string): boolean {
  return OPAQUE.has(type) || (type.endsWith('_tool_result') && type !== 'tool_result');
}

interface Reader extends ReaderState {
  readonly text: TextSlices;
}

/** The text of a tool_result content that is plain text (string or text blocks only). */
function resultContent(
  reader: Reader,
  content: JsonNode | undefined,
): { text: string; cacheControlRaw?: string } | undefined {
  if (content === undefined) return { text: '' };
  if (content.kind === 'string') return { text: content.value };
  if (content.kind !== 'array') return undefined;
  const parts: string[] = [];
  let cacheControlRaw: string | undefined;
  for (const item of content.items) {
    if (stringMember(item, 'type') !== 'text') return undefined;
    const text = stringMember(item, 'text');
    if (text === undefined) return undefined;
    parts.push(text);
    const cc = member(item, 'cache_control');
    if (cc !== undefined) cacheControlRaw = reader.text.slice(cc.start, cc.end);
  }
  return cacheControlRaw === undefined
    ? { text: parts.join('\n') }
    : { text: parts.join('\n'), cacheControlRaw };
}

/** Where a block sits: its wire message and the index its first decision block will have. */
interface BlockPosition {
  readonly messageIndex: number;
  readonly blockIndex: number;
}

function readToolResult(
  reader: Reader,
  block: JsonNode,
  position: BlockPosition,
): ContentBlock[] | string {
  const callId = stringMember(block, 'tool_use_id');
  if (callId === undefined) return 'tool_result without tool_use_id';
  const contentNode = member(block, 'content');
  const content = resultContent(reader, contentNode);
  const flag = member(block, 'is_error');
  const isError = flag !== undefined && reader.text.slice(flag.start, flag.end) === 'true';
  const text = content?.text ?? '';
  if (content !== undefined && contentNode !== undefined) {
    reader.sites.push({
      callId,
      ...position,
      start: contentNode.start,
      end: contentNode.end,
      ...(content.cacheControlRaw === undefined
        ? {}
        : { cacheControlRaw: content.cacheControlRaw }),
    });
  }
  const refs = reader.callIds.get(callId) ?? [{ id: callId, name: '' }];
  return refs.map((ref) =>
    toolResponseBlock({
      callId: ref.id,
      toolName: ref.name,
      result: content === undefined ? { opaque: true } : text,
      ...(isError ? { error: text || 'error' } : {}),
    }),
  );
}

function readBlock(
  reader: Reader,
  block: JsonNode,
  position: BlockPosition,
): ContentBlock[] | string {
  const type = stringMember(block, 'type');
  if (type === undefined) return 'content block without a type';
  switch (type) {
    case 'text':
      return [textBlock(stringMember(block, 'text') ?? '')];
    case 'tool_use': {
      const id = stringMember(block, 'id');
      const name = stringMember(block, 'name');
      const input = member(block, 'input');
      if (id === undefined || name === undefined) return 'tool_use without id or name';
      const calls = canonicalCalls(
        id,
        name,
        input === undefined ? {} : nodeValue(reader.text, input),
      );
      reader.callIds.set(id, canonicalIds(calls));
      return calls;
    }
    case 'tool_result':
      return readToolResult(reader, block, position);
    default:
      return isOpaque(type) ? [] : `unknown content block type '${type}'`;
  }
}

function readMessage(reader: Reader, message: JsonNode, index: number): IContent | string {
  const role = stringMember(message, 'role');
  const content = member(message, 'content');
  if (role === undefined || content === undefined) return `message ${index} has no role or content`;
  const blocks: ContentBlock[] = [];
  if (content.kind === 'string') blocks.push(textBlock(content.value));
  else if (content.kind === 'array') {
    for (const block of content.items) {
      const read = readBlock(reader, block, { messageIndex: index, blockIndex: blocks.length });
      if (typeof read === 'string') return read;
      blocks.push(...read);
    }
  } else return `message ${index} content is neither text nor blocks`;
  const speaker: Speaker =
    role === 'assistant'
      ? 'ai'
      : blocks.some((block) => block.type === 'tool_response')
        ? 'tool'
        : 'human';
  // A copy of exact length: the history is kept with the read, and `push` leaves spare capacity.
  return { speaker, blocks: blocks.slice() };
}

/**
 * Reads the request body (already parsed with spans). Never throws on odd shapes. With `state`
 * (see `readerState.ts`) only the messages from `state.from` on are read.
 */
export function readAnthropicRequest(
  text: TextSlices,
  root: JsonNode,
  state: ReaderState = freshReaderState(),
): ReadOutcome {
  const messages = member(root, 'messages');
  if (messages?.kind !== 'array') return unsupported('no messages array');
  const reader: Reader = { ...state, text };
  const systemNode = member(root, 'system');
  const system = systemNode === undefined ? '' : text.slice(systemNode.start, systemNode.end);
  const history = state.history;
  for (let index = state.from; index < messages.items.length; index++) {
    startMessage(state, index);
    const entry = readMessage(reader, messages.items[index] as JsonNode, index);
    if (typeof entry === 'string') {
      return unsupported(entry, index > 0 ? conversationIdentity(system, history) : undefined);
    }
    history.push(entry);
  }
  const identity = conversationIdentity(system, history);
  return {
    kind: 'history',
    wire: {
      api: 'anthropic',
      history,
      sites: state.sites,
      messageCount: messages.items.length,
      messageSpans: messageSpans(state, messages.items),
      identity,
    },
  };
}
