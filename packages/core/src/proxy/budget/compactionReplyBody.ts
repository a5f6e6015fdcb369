/**
 * A text-only assistant reply as each wire API's response body: an event stream when the
 * request streams, one JSON object otherwise. Usage reports only the output (about characters
 * / 4): no model read a prompt.
 */
import type { WireApi } from '../wire/wireHistory.js';

export interface TextReply {
  readonly model: string;
  /** Without the wire's id prefix. */
  readonly id: string;
  readonly text: string;
}

interface Json {
  readonly [key: string]: unknown;
}

const outputTokens = (reply: TextReply): number => Math.ceil(reply.text.length / 4);

function namedEvent(name: string, data: unknown): string {
  return `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Anthropic Messages: one text block, `end_turn`. */
function anthropicStream(reply: TextReply): string {
  const usage = { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = {
    id: reply.id,
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { ...usage, output_tokens: 1 },
  };
  const events: [string, Json][] = [
    ['message_start', { message }],
    ['content_block_start', { index: 0, content_block: { type: 'text', text: '' } }],
    ['content_block_delta', { index: 0, delta: { type: 'text_delta', text: reply.text } }],
    ['content_block_stop', { index: 0 }],
    [
      'message_delta',
      {
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: outputTokens(reply) },
      },
    ],
    ['message_stop', {}],
  ];
  return events.map(([name, data]) => namedEvent(name, { type: name, ...data })).join('');
}

function anthropicJson(reply: TextReply): string {
  return JSON.stringify({
    id: reply.id,
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content: [{ type: 'text', text: reply.text }],
    stop_reason: 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: 0, output_tokens: outputTokens(reply) },
  });
}

function responseObject(reply: TextReply, status: string, output: readonly unknown[]): Json {
  const tokens = outputTokens(reply);
  return {
    id: reply.id,
    object: 'response',
    status,
    model: reply.model,
    output,
    usage: {
      input_tokens: 0,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: tokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: tokens,
    },
  };
}

function responsesMessage(reply: TextReply): Json {
  return {
    type: 'message',
    id: `msg_${reply.id}`,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: reply.text, annotations: [] }],
  };
}

/** Responses: one assistant message, completed. */
function responsesStream(reply: TextReply): string {
  const item = responsesMessage(reply);
  const events: Json[] = [
    { type: 'response.created', response: responseObject(reply, 'in_progress', []) },
    {
      type: 'response.output_item.added',
      output_index: 0,
      item: { ...item, status: 'in_progress', content: [] },
    },
    {
      type: 'response.output_text.delta',
      item_id: item.id,
      output_index: 0,
      content_index: 0,
      delta: reply.text,
    },
    { type: 'response.output_item.done', output_index: 0, item },
    { type: 'response.completed', response: responseObject(reply, 'completed', [item]) },
  ];
  return events.map((data) => namedEvent(String(data.type), data)).join('');
}

function responsesJson(reply: TextReply): string {
  return JSON.stringify(responseObject(reply, 'completed', [responsesMessage(reply)]));
}

function chatUsage(reply: TextReply): Json {
  const tokens = outputTokens(reply);
  return { prompt_tokens: 0, completion_tokens: tokens, total_tokens: tokens };
}

/** Chat Completions: the text in one delta, `stop`, then the usage chunk and `[DONE]`. */
function chatStream(reply: TextReply): string {
  const chunk = (choices: readonly Json[], extra: Json = {}): Json => ({
    id: reply.id,
    object: 'chat.completion.chunk',
    created: 0,
    model: reply.model,
    choices,
    ...extra,
  });
  const chunks = [
    chunk([{ index: 0, delta: { role: 'assistant', content: reply.text }, finish_reason: null }]),
    chunk([{ index: 0, delta: {}, finish_reason: 'stop' }]),
    chunk([], { usage: chatUsage(reply) }),
  ];
  return `${chunks.map((data) => `data: ${JSON.stringify(data)}\n\n`).join('')}data: [DONE]\n\n`;
}

function chatJson(reply: TextReply): string {
  return JSON.stringify({
    id: reply.id,
    object: 'chat.completion',
    created: 0,
    model: reply.model,
    choices: [
      { index: 0, message: { role: 'assistant', content: reply.text }, finish_reason: 'stop' },
    ],
    usage: chatUsage(reply),
  });
}

interface Encoder {
  /** Prefix of the wire's response ids. */
  readonly idPrefix: string;
  readonly stream: (reply: TextReply) => string;
  readonly json: (reply: TextReply) => string;
}

const ENCODERS: Readonly<Record<WireApi, Encoder>> = {
  anthropic: { idPrefix: 'msg_', stream: anthropicStream, json: anthropicJson },
  'openai-responses': { idPrefix: 'resp_', stream: responsesStream, json: responsesJson },
  'openai-chat': { idPrefix: 'chatcmpl-', stream: chatStream, json: chatJson },
};

/** The reply as `api`'s response body, with its content type. */
export function compactionReplyBody(
  api: WireApi,
  reply: TextReply,
  stream: boolean,
): { readonly contentType: string; readonly body: string } {
  const encoder = ENCODERS[api];
  const wired = { ...reply, id: `${encoder.idPrefix}${reply.id}` };
  return stream
    ? { contentType: 'text/event-stream', body: encoder.stream(wired) }
    : { contentType: 'application/json', body: encoder.json(wired) };
}
