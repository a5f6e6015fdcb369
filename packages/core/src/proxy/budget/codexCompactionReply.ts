/**
 * Codex's own compaction request, recognized and answered at once with Dense's deterministic
 * summary instead of a model call. Codex 0.169 sends it as an ordinary streamed `/responses` call
 * (same model, instructions and tools) whose `input` is the conversation plus one last user
 * message beginning `CODEX_COMPACTION_MARKER`; it keeps the text of the assistant message it gets
 * back and continues from its own leading messages plus that text.
 */
import { isUtf8 } from 'node:buffer';
import { readOpenAIRequest } from '../openaiHistory.js';
import { member, parseJsonSpans, stringMember, type JsonNode } from '../jsonSpans.js';
import { compactionSummary } from './compactionSummary.js';
import { openaiLayout } from './compactionLayout.js';
import type { CompactionReply } from './compactionReply.js';

export const CODEX_COMPACTION_MARKER = 'You are performing a CONTEXT CHECKPOINT COMPACTION.';
/** The summary may take this many characters. */
const SUMMARY_CHARS = 24_000;

/** The text of an input item's parts (`input_text`), or its string content. */
function itemText(item: JsonNode | undefined): string {
  const content = member(item, 'content');
  if (content?.kind === 'string') return content.value;
  if (content?.kind !== 'array') return '';
  return content.items.map((part) => stringMember(part, 'text') ?? '').join('\n');
}

/** Whether the parsed Responses request is a compaction request (its last item holds the marker). */
export function isCodexCompactionRequest(root: JsonNode): boolean {
  const input = member(root, 'input');
  const last = input?.kind === 'array' ? input.items.at(-1) : undefined;
  if (stringMember(last, 'role') !== 'user') return false;
  return itemText(last).startsWith(CODEX_COMPACTION_MARKER);
}

function replyText(summary: string, items: number): string {
  return `Dense answered this compaction request itself, without a model call: the ${items} items below are summarized deterministically; \`dense recall <id>\` with any recall id gives the exact original.\n\n${summary}`;
}

function sseEvent(data: { readonly type: string; readonly [key: string]: unknown }): string {
  return `event: ${data.type}\ndata: ${JSON.stringify(data)}\n\n`;
}

interface ReplyInput {
  readonly model: string;
  readonly id: string;
  readonly text: string;
}

function responseObject(input: ReplyInput, status: string, output: readonly unknown[]) {
  const outputTokens = Math.ceil(input.text.length / 4);
  return {
    id: input.id,
    object: 'response',
    status,
    model: input.model,
    output,
    usage: {
      input_tokens: 0,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: outputTokens,
    },
  };
}

function messageItem(input: ReplyInput) {
  return {
    type: 'message',
    id: `msg_${input.id}`,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: input.text, annotations: [] }],
  };
}

/** The reply as a Responses event stream: one assistant message, completed. */
function responsesTextStream(input: ReplyInput): string {
  const item = messageItem(input);
  const started = { ...item, status: 'in_progress', content: [] };
  return [
    sseEvent({ type: 'response.created', response: responseObject(input, 'in_progress', []) }),
    sseEvent({ type: 'response.output_item.added', output_index: 0, item: started }),
    sseEvent({
      type: 'response.output_text.delta',
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      delta: input.text,
    }),
    sseEvent({ type: 'response.output_item.done', output_index: 0, item }),
    sseEvent({ type: 'response.completed', response: responseObject(input, 'completed', [item]) }),
  ].join('');
}

/**
 * Dense's reply to a Codex compaction request, or undefined when `body` is not one (or cannot be
 * read: it is then forwarded as any other request). Never throws.
 */
export function codexCompactionReply(body: Buffer): CompactionReply | undefined {
  // Most requests are not one: a byte search spares them a second parse.
  if (!body.includes(CODEX_COMPACTION_MARKER) || !isUtf8(body)) return undefined;
  const text = body.toString('utf8');
  try {
    const root = parseJsonSpans(text);
    if (!isCodexCompactionRequest(root)) return undefined;
    const read = readOpenAIRequest(text, root, 'openai-responses');
    if (read.kind !== 'history') return undefined;
    // Codex keeps its leading items itself; the summary covers the items after them.
    const { start } = openaiLayout(root, 'openai-responses');
    const spans = read.wire.messageSpans;
    const last = spans.length - 1;
    const removed = read.wire.history.slice(Math.min(start, last), last);
    const summary = compactionSummary({
      removed,
      history: read.wire.history.slice(0, last),
      removedRaw: text.slice(spans[Math.min(start, last)]?.start ?? 0, spans[last - 1]?.end ?? 0),
      budgetChars: SUMMARY_CHARS,
      purpose: 'client-compaction',
    });
    const reply = {
      model: stringMember(root, 'model') ?? 'dense',
      id: `resp_dense_compaction_${removed.length}`,
      text: replyText(summary.text, removed.length),
    };
    const stream = member(root, 'stream');
    const streamed = stream !== undefined && text.slice(stream.start, stream.end) === 'true';
    return {
      identity: read.wire.identity,
      stream: streamed,
      contentType: streamed ? 'text/event-stream' : 'application/json',
      body: streamed
        ? responsesTextStream(reply)
        : JSON.stringify(responseObject(reply, 'completed', [messageItem(reply)])),
      messages: removed.length,
      recalls: summary.recall,
    };
  } catch {
    return undefined;
  }
}
