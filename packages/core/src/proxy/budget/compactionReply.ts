/**
 * Claude Code's own compaction request, recognized and answered at once with Dense's
 * deterministic summary instead of a model call. The request is an ordinary `/v1/messages` call
 * whose last user message gains a text block beginning `COMPACTION_MARKER` and naming
 * `COMPACTION_TASK`; the client expects `<analysis>` then `<summary>` in a text reply.
 */
import { isUtf8 } from 'node:buffer';
import type { IContent } from '../../services/history/IContent.js';
import { readAnthropicRequest } from '../anthropicHistory.js';
import { member, parseJsonSpans, stringMember, type JsonNode } from '../jsonSpans.js';
import { compactionSummary } from './compactionSummary.js';
import type { RecallEntry } from '../../recall/RecallArchive.js';

export const COMPACTION_MARKER = 'CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.';
export const COMPACTION_TASK =
  'Your task is to create a detailed summary of the conversation so far';
/** The summary may take this many characters (Claude Code's own run 9–17k). */
const SUMMARY_CHARS = 24_000;

export interface CompactionReply {
  /** The conversation's identity, as the request reader gives it. */
  readonly identity: string;
  readonly stream: boolean;
  readonly contentType: string;
  readonly body: string;
  /** Messages the summary covers. */
  readonly messages: number;
  /** The originals the summary names, to keep before the reply goes out. */
  readonly recalls: readonly RecallEntry[];
}

function isMarkerBlock(block: JsonNode): boolean {
  const text = stringMember(block, 'type') === 'text' ? stringMember(block, 'text') : undefined;
  return text !== undefined && text.startsWith(COMPACTION_MARKER) && text.includes(COMPACTION_TASK);
}

/** Whether the parsed request is a compaction request (its last user message holds the marker). */
export function isCompactionRequest(root: JsonNode): boolean {
  const messages = member(root, 'messages');
  const last = messages?.kind === 'array' ? messages.items.at(-1) : undefined;
  if (stringMember(last, 'role') !== 'user') return false;
  const content = member(last, 'content');
  if (content?.kind === 'string') {
    return content.value.startsWith(COMPACTION_MARKER) && content.value.includes(COMPACTION_TASK);
  }
  return content?.kind === 'array' && content.items.some(isMarkerBlock);
}

/** The conversation without the compaction instruction. */
function withoutInstruction(history: readonly IContent[]): IContent[] {
  return history
    .map((entry, index) =>
      index < history.length - 1
        ? entry
        : {
            ...entry,
            blocks: entry.blocks.filter(
              (block) => block.type !== 'text' || !block.text.startsWith(COMPACTION_MARKER),
            ),
          },
    )
    .filter((entry) => entry.blocks.length > 0);
}

function replyText(summary: string, messages: number): string {
  const analysis = `Dense answered this compaction request itself, without a model call: the ${messages} messages are summarized deterministically below; \`dense recall <id>\` with any recall id gives the exact original.`;
  return `<analysis>\n${analysis}\n</analysis>\n\n<summary>\n${summary}\n</summary>`;
}

function sseEvent(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** The reply as Anthropic's stream: one text block, `end_turn`. */
export function anthropicTextStream(input: { model: string; id: string; text: string }): string {
  const outputTokens = Math.ceil(input.text.length / 4);
  const usage = { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = {
    id: input.id,
    type: 'message',
    role: 'assistant',
    model: input.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { ...usage, output_tokens: 1 },
  };
  return [
    sseEvent('message_start', { type: 'message_start', message }),
    sseEvent('content_block_start', {
      type: 'content_block_start',
      index: 0,
      content_block: { type: 'text', text: '' },
    }),
    sseEvent('content_block_delta', {
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'text_delta', text: input.text },
    }),
    sseEvent('content_block_stop', { type: 'content_block_stop', index: 0 }),
    sseEvent('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: outputTokens },
    }),
    sseEvent('message_stop', { type: 'message_stop' }),
  ].join('');
}

function jsonReply(input: { model: string; id: string; text: string }): string {
  return JSON.stringify({
    id: input.id,
    type: 'message',
    role: 'assistant',
    model: input.model,
    content: [{ type: 'text', text: input.text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: Math.ceil(input.text.length / 4) },
  });
}

/**
 * Dense's reply to a compaction request, or undefined when `body` is not one (or cannot be read:
 * it is then forwarded as any other request). Never throws.
 */
export function compactionReply(body: Buffer): CompactionReply | undefined {
  // Most requests are not one: a byte search spares them a second parse.
  if (!body.includes(COMPACTION_MARKER) || !isUtf8(body)) return undefined;
  const text = body.toString('utf8');
  try {
    const root = parseJsonSpans(text);
    if (!isCompactionRequest(root)) return undefined;
    const read = readAnthropicRequest(text, root);
    if (read.kind !== 'history') return undefined;
    const history = withoutInstruction(read.wire.history);
    const spans = read.wire.messageSpans;
    const removedRaw = text.slice(spans[0]?.start ?? 0, spans.at(-1)?.end ?? 0);
    const summary = compactionSummary({
      removed: history,
      history,
      removedRaw,
      budgetChars: SUMMARY_CHARS,
      purpose: 'client-compaction',
    });
    const reply = {
      model: stringMember(root, 'model') ?? 'dense',
      id: `msg_dense_compaction_${history.length}`,
      text: replyText(summary.text, history.length),
    };
    const stream = nodeIsTrue(text, member(root, 'stream'));
    return {
      identity: read.wire.identity,
      stream,
      contentType: stream ? 'text/event-stream' : 'application/json',
      body: stream ? anthropicTextStream(reply) : jsonReply(reply),
      messages: history.length,
      recalls: summary.recall,
    };
  } catch {
    return undefined;
  }
}

function nodeIsTrue(text: string, node: JsonNode | undefined): boolean {
  return node !== undefined && text.slice(node.start, node.end) === 'true';
}
