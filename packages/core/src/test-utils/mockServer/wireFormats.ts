/**
 * The three streaming wire formats the mock server speaks, as pure functions from a scripted
 * reply to server-sent events. `body` is the content; `terminal` is what a well-behaved server
 * sends to finish (finish reason, usage, end marker), left out when a fault ends the stream early.
 */
import {
  argumentsString,
  splitInPieces,
  type MockHttpError,
  type MockToolCall,
  type NormalizedStream,
} from './mockScript.js';

export type MockProviderKind = 'openai' | 'anthropic' | 'gemini';

export interface SseEvent {
  readonly event?: string;
  readonly data: string;
}

export interface WireStream {
  readonly body: readonly SseEvent[];
  readonly terminal: readonly SseEvent[];
}

/** An SSE event whose data no JSON parser accepts (named, so Anthropic's client parses it). */
export function malformedEvent(kind: MockProviderKind): SseEvent {
  const data = '{"choices": [ {"delta": oops';
  return kind === 'anthropic' ? { event: 'content_block_delta', data } : { data };
}

const json = (value: unknown): string => JSON.stringify(value);

/** One event as it goes on the wire. */
export function formatEvent(event: SseEvent): string {
  return `${event.event === undefined ? '' : `event: ${event.event}\n`}data: ${event.data}\n\n`;
}

function callId(call: MockToolCall, index: number, prefix: string): string {
  return call.id ?? `${prefix}${index + 1}`;
}

export function openaiStream(reply: NormalizedStream, model: string): WireStream {
  const base = { id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 0, model };
  const chunk = (delta: unknown, finish: string | null = null): SseEvent => ({
    data: json({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] }),
  });
  const body: SseEvent[] = [chunk({ role: 'assistant', content: '' })];
  for (const thought of reply.thinking) body.push(chunk({ reasoning_content: thought }));
  for (const text of reply.text) body.push(chunk({ content: text }));
  const pieces = reply.toolCalls.map((call) => splitInPieces(argumentsString(call), 3));
  reply.toolCalls.forEach((call, index) => {
    body.push(
      chunk({
        tool_calls: [
          {
            index,
            id: callId(call, index, 'call_mock_'),
            type: 'function',
            function: { name: call.name, arguments: '' },
          },
        ],
      }),
    );
  });
  const rounds = Math.max(0, ...pieces.map((p) => p.length));
  for (let round = 0; round < rounds; round++) {
    pieces.forEach((list, index) => {
      const piece = list[round];
      if (piece !== undefined) {
        body.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
      }
    });
  }
  const terminal: SseEvent[] = [chunk({}, reply.toolCalls.length > 0 ? 'tool_calls' : 'stop')];
  if (reply.usage) {
    const { promptTokens, completionTokens, cachedTokens } = reply.usage;
    terminal.push({
      data: json({
        ...base,
        choices: [],
        usage: {
          prompt_tokens: promptTokens,
          completion_tokens: completionTokens,
          total_tokens: promptTokens + completionTokens,
          ...(cachedTokens === undefined
            ? {}
            : { prompt_tokens_details: { cached_tokens: cachedTokens } }),
        },
      }),
    });
  }
  terminal.push({ data: '[DONE]' });
  return { body, terminal };
}

/** `messageId`: clients that group blocks by message id (Claude Code) need one per reply. */
export function anthropicStream(
  reply: NormalizedStream,
  model: string,
  messageId = 'msg_mock',
): WireStream {
  const ev = (type: string, payload: Record<string, unknown>): SseEvent => ({
    event: type,
    data: json({ type, ...payload }),
  });
  const usage = reply.usage;
  const body: SseEvent[] = [
    ev('message_start', {
      message: {
        id: messageId,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: {
          input_tokens: usage
            ? usage.promptTokens - (usage.cachedTokens ?? 0) - (usage.cacheWriteTokens ?? 0)
            : 0,
          output_tokens: 1,
          cache_creation_input_tokens: usage?.cacheWriteTokens ?? 0,
          cache_read_input_tokens: usage?.cachedTokens ?? 0,
        },
      },
    }),
  ];
  let index = 0;
  if (reply.thinking.length > 0) {
    body.push(
      ev('content_block_start', {
        index,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      }),
    );
    for (const thinking of reply.thinking) {
      body.push(ev('content_block_delta', { index, delta: { type: 'thinking_delta', thinking } }));
    }
    body.push(
      ev('content_block_delta', {
        index,
        delta: { type: 'signature_delta', signature: 'sig-mock' },
      }),
    );
    body.push(ev('content_block_stop', { index }));
    index++;
  }
  if (reply.text.length > 0) {
    body.push(ev('content_block_start', { index, content_block: { type: 'text', text: '' } }));
    for (const text of reply.text) {
      body.push(ev('content_block_delta', { index, delta: { type: 'text_delta', text } }));
    }
    body.push(ev('content_block_stop', { index }));
    index++;
  }
  reply.toolCalls.forEach((call, i) => {
    const id = callId(call, i, 'toolu_mock_');
    body.push(
      ev('content_block_start', {
        index,
        content_block: { type: 'tool_use', id, name: call.name, input: {} },
      }),
    );
    for (const partial_json of splitInPieces(argumentsString(call), 3)) {
      body.push(
        ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json } }),
      );
    }
    body.push(ev('content_block_stop', { index }));
    index++;
  });
  const terminal: SseEvent[] = [
    ev('message_delta', {
      delta: {
        stop_reason: reply.toolCalls.length > 0 ? 'tool_use' : 'end_turn',
        stop_sequence: null,
      },
      usage: { output_tokens: usage?.completionTokens ?? 0 },
    }),
    ev('message_stop', {}),
  ];
  return { body, terminal };
}

export function geminiStream(reply: NormalizedStream, model: string): WireStream {
  const chunk = (parts: unknown[], extra: Record<string, unknown> = {}): SseEvent => ({
    data: json({
      candidates: [{ content: { role: 'model', parts }, index: 0, ...extra }],
      modelVersion: model,
    }),
  });
  const body: SseEvent[] = [];
  for (const text of reply.thinking) body.push(chunk([{ text, thought: true }]));
  for (const text of reply.text) body.push(chunk([{ text }]));
  if (reply.toolCalls.length > 0) {
    body.push(
      chunk(
        reply.toolCalls.map((call) => ({
          functionCall: {
            ...(call.id === undefined ? {} : { id: call.id }),
            name: call.name,
            args: geminiArgs(call),
          },
        })),
      ),
    );
  }
  const usage = reply.usage;
  const usageMetadata = usage
    ? {
        promptTokenCount: usage.promptTokens,
        candidatesTokenCount: usage.completionTokens,
        totalTokenCount: usage.promptTokens + usage.completionTokens,
        ...(usage.cachedTokens === undefined
          ? {}
          : { cachedContentTokenCount: usage.cachedTokens }),
      }
    : undefined;
  const finish = {
    data: json({
      candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP', index: 0 }],
      ...(usageMetadata ? { usageMetadata } : {}),
      modelVersion: model,
    }),
  };
  return { body, terminal: [finish] };
}

function geminiArgs(call: MockToolCall): unknown {
  if (typeof call.arguments !== 'string') return call.arguments ?? {};
  try {
    return JSON.parse(call.arguments) as unknown;
  } catch {
    return call.arguments;
  }
}

/** Each API's JSON error body for an HTTP error reply. */
export function errorBody(kind: MockProviderKind, error: MockHttpError): unknown {
  if (error.body !== undefined) return error.body;
  const message = error.message ?? `mock HTTP ${error.status}`;
  switch (kind) {
    case 'openai':
      return { error: { message, type: 'mock_error', param: null, code: String(error.status) } };
    case 'anthropic':
      return {
        type: 'error',
        error: { type: error.status === 429 ? 'rate_limit_error' : 'api_error', message },
      };
    case 'gemini':
      return {
        error: {
          code: error.status,
          message,
          status: error.status === 429 ? 'RESOURCE_EXHAUSTED' : 'INTERNAL',
        },
      };
    default: {
      const unreachable: never = kind;
      return unreachable;
    }
  }
}

/** OpenAI's Responses API: one `output_item.done` per message or function call, usage at the end. */
export function responsesStream(reply: NormalizedStream, model: string): WireStream {
  const ev = (type: string, payload: Record<string, unknown>): SseEvent => ({
    event: type,
    data: json({ type, ...payload }),
  });
  const output: Record<string, unknown>[] = [];
  if (reply.text.length > 0) {
    output.push({
      type: 'message',
      id: 'msg_mock',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: reply.text.join(''), annotations: [] }],
    });
  }
  reply.toolCalls.forEach((call, index) => {
    output.push({
      type: 'function_call',
      id: `fc_mock_${index + 1}`,
      call_id: callId(call, index, 'call_mock_'),
      name: call.name,
      arguments: argumentsString(call),
      status: 'completed',
    });
  });
  const response = { id: 'resp_mock', object: 'response', model };
  const body: SseEvent[] = [
    ev('response.created', { response: { ...response, status: 'in_progress', output: [] } }),
    ...output.map((item, output_index) => ev('response.output_item.done', { output_index, item })),
  ];
  const usage = reply.usage;
  const terminal: SseEvent[] = [
    ev('response.completed', {
      response: {
        ...response,
        status: 'completed',
        output,
        ...(usage === undefined
          ? {}
          : {
              usage: {
                input_tokens: usage.promptTokens,
                input_tokens_details: { cached_tokens: usage.cachedTokens ?? 0 },
                output_tokens: usage.completionTokens,
                total_tokens: usage.promptTokens + usage.completionTokens,
              },
            }),
      },
    }),
  ];
  return { body, terminal };
}
