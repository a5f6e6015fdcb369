/** The three pure stream readers, fed hand-made wire events (no HTTP). */
import { describe, expect, it } from 'vitest';
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { GenerateContentResponse } from '@google/genai';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { AnthropicStreamReader } from './anthropicStream.js';
import { textChunk, thinkingChunk, toolCallChunk, usageChunk } from './chunks.js';
import { GeminiStreamReader } from './geminiStream.js';
import type { ProviderChunk } from './IProvider.js';
import { OpenAIStreamReader } from './openaiStream.js';
import { thrownBy } from '../test-utils/mockServer/providerTestKit.js';

const sequentialIds = () => {
  let n = 0;
  return () => `gen_${++n}`;
};

describe('OpenAIStreamReader', () => {
  const chunk = (delta: object, finish: string | null = null, extra: object = {}) =>
    ({
      id: 'x',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'm',
      choices: [{ index: 0, delta, finish_reason: finish }],
      ...extra,
    }) as unknown as ChatCompletionChunk;

  function read(
    chunks: ChatCompletionChunk[],
    reader = new OpenAIStreamReader('openai', sequentialIds()),
  ): ProviderChunk[] {
    return [...chunks.flatMap((c) => reader.push(c)), ...reader.finish()];
  }

  it('joins interleaved argument fragments of parallel calls and emits each call whole', () => {
    const out = read([
      chunk({
        tool_calls: [
          { index: 0, id: 'a', type: 'function', function: { name: 'read_file', arguments: '' } },
        ],
      }),
      chunk({
        tool_calls: [
          { index: 1, id: 'b', type: 'function', function: { name: 'ls', arguments: '{"pa' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"file_path":' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: 'th":"."}' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"x.ts"}' } }] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(out).toEqual([
      toolCallChunk('a', 'read_file', { file_path: 'x.ts' }),
      toolCallChunk('b', 'ls', { path: '.' }),
    ]);
  });

  it('yields malformed arguments as the raw string instead of throwing', () => {
    const out = read([
      chunk({
        tool_calls: [{ index: 0, id: 'a', function: { name: 'ls', arguments: '{"path": ' } }],
      }),
      chunk({}, 'tool_calls'),
    ]);
    expect(out).toEqual([toolCallChunk('a', 'ls', '{"path": ')]);
  });

  it('names a call the server left without an id', () => {
    const out = read([
      chunk({ tool_calls: [{ index: 0, function: { name: 'ls', arguments: '{}' } }] }),
      chunk({}, 'stop'),
    ]);
    expect(out).toEqual([toolCallChunk('gen_1', 'ls', {})]);
  });

  it('passes text and reasoning deltas through and reports usage with cached tokens last', () => {
    const out = read([
      chunk({ reasoning_content: 'think' }),
      chunk({ content: 'Hel' }),
      chunk({ content: 'lo' }, 'stop'),
      {
        id: 'x',
        object: 'chat.completion.chunk',
        created: 0,
        model: 'm',
        choices: [],
        usage: {
          prompt_tokens: 100,
          completion_tokens: 7,
          total_tokens: 107,
          prompt_tokens_details: { cached_tokens: 64 },
        },
      } as unknown as ChatCompletionChunk,
    ]);
    expect(out).toEqual([
      thinkingChunk('think'),
      textChunk('Hel'),
      textChunk('lo'),
      usageChunk({ promptTokens: 100, completionTokens: 7, totalTokens: 107, cachedTokens: 64 }),
    ]);
  });

  it('treats a stream without a finish_reason as cut short, and a chunk without choices as garbage', () => {
    const reader = new OpenAIStreamReader();
    reader.push(chunk({ content: 'partial' }));
    expect(thrownBy(() => reader.finish()).code).toBe('PROVIDER_PROTOCOL_ERROR');
    const garbage = { nope: 1 } as unknown as ChatCompletionChunk;
    expect(thrownBy(() => new OpenAIStreamReader().push(garbage)).code).toBe(
      'PROVIDER_PROTOCOL_ERROR',
    );
  });
});

describe('AnthropicStreamReader', () => {
  const ev = (e: object) => e as RawMessageStreamEvent;
  const start = ev({
    type: 'message_start',
    message: {
      usage: {
        input_tokens: 10,
        output_tokens: 1,
        cache_read_input_tokens: 90,
        cache_creation_input_tokens: 5,
      },
    },
  });
  const stop = [
    ev({ type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 42 } }),
    ev({ type: 'message_stop' }),
  ];

  function read(events: RawMessageStreamEvent[]): ProviderChunk[] {
    const reader = new AnthropicStreamReader();
    return [...events.flatMap((e) => reader.push(e)), ...reader.finish()];
  }

  it('streams thinking with its signature, text, and whole tool calls; usage counts cache reads and writes', () => {
    const out = read([
      start,
      ev({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'thinking', thinking: '', signature: '' },
      }),
      ev({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'thinking_delta', thinking: 'hmm' },
      }),
      ev({
        type: 'content_block_delta',
        index: 0,
        delta: { type: 'signature_delta', signature: 'S' },
      }),
      ev({ type: 'content_block_stop', index: 0 }),
      ev({ type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } }),
      ev({ type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Hi' } }),
      ev({ type: 'content_block_stop', index: 1 }),
      ev({
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'ls', input: {} },
      }),
      ev({
        type: 'content_block_start',
        index: 3,
        content_block: { type: 'tool_use', id: 'toolu_2', name: 'cat', input: {} },
      }),
      ev({
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'input_json_delta', partial_json: '{"path"' },
      }),
      ev({
        type: 'content_block_delta',
        index: 3,
        delta: { type: 'input_json_delta', partial_json: '{"f":1}' },
      }),
      ev({
        type: 'content_block_delta',
        index: 2,
        delta: { type: 'input_json_delta', partial_json: ':"."}' },
      }),
      ev({ type: 'content_block_stop', index: 2 }),
      ev({ type: 'content_block_stop', index: 3 }),
      ev({ type: 'ping' }),
      ...stop,
    ]);
    expect(out).toEqual([
      thinkingChunk('hmm'),
      thinkingChunk('', 'S'),
      textChunk('Hi'),
      toolCallChunk('toolu_1', 'ls', { path: '.' }),
      toolCallChunk('toolu_2', 'cat', { f: 1 }),
      usageChunk({ promptTokens: 105, completionTokens: 42, totalTokens: 147, cachedTokens: 90 }),
    ]);
  });

  it("uses a tool_use block's own input when no fragments arrive, and the raw string for bad JSON", () => {
    const out = read([
      start,
      ev({
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 't1', name: 'ls', input: { path: 'src' } },
      }),
      ev({ type: 'content_block_stop', index: 0 }),
      ev({
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 't2', name: 'ls', input: {} },
      }),
      ev({
        type: 'content_block_delta',
        index: 1,
        delta: { type: 'input_json_delta', partial_json: '{"path' },
      }),
      ev({ type: 'content_block_stop', index: 1 }),
      ...stop,
    ]);
    expect(out.slice(0, 2)).toEqual([
      toolCallChunk('t1', 'ls', { path: 'src' }),
      toolCallChunk('t2', 'ls', '{"path'),
    ]);
  });

  it('rejects a stream that ends before message_stop', () => {
    const reader = new AnthropicStreamReader();
    reader.push(start);
    expect(thrownBy(() => reader.finish()).code).toBe('PROVIDER_PROTOCOL_ERROR');
  });
});

describe('GeminiStreamReader', () => {
  const resp = (parts: object[]) =>
    ({
      candidates: [{ content: { role: 'model', parts }, index: 0 }],
    }) as unknown as GenerateContentResponse;

  it('makes ids for unnamed calls, keeps given ids, and emits signatures before their part', () => {
    const reader = new GeminiStreamReader('gemini', sequentialIds());
    const out = [
      ...reader.push(resp([{ text: 'plan', thought: true }])),
      ...reader.push(
        resp([
          { functionCall: { name: 'ls', args: { path: '.' } }, thoughtSignature: 'S1' },
          { functionCall: { id: 'kept', name: 'cat', args: {} } },
        ]),
      ),
      ...reader.push({
        candidates: [{ content: { role: 'model', parts: [] }, finishReason: 'STOP' }],
        usageMetadata: {
          promptTokenCount: 50,
          candidatesTokenCount: 5,
          thoughtsTokenCount: 3,
          totalTokenCount: 58,
          cachedContentTokenCount: 20,
        },
      } as unknown as GenerateContentResponse),
      ...reader.finish(),
    ];
    expect(out).toEqual([
      thinkingChunk('plan'),
      thinkingChunk('', 'S1'),
      toolCallChunk('gen_1', 'ls', { path: '.' }),
      toolCallChunk('kept', 'cat', {}),
      usageChunk({ promptTokens: 50, completionTokens: 8, totalTokens: 58, cachedTokens: 20 }),
    ]);
  });

  it('rejects a stream that ends without a finishReason, and a chunk whose candidates are not a list', () => {
    const reader = new GeminiStreamReader();
    reader.push(resp([{ text: 'partial' }]));
    expect(thrownBy(() => reader.finish()).code).toBe('PROVIDER_PROTOCOL_ERROR');
    const garbage = { candidates: 'x' } as unknown as GenerateContentResponse;
    expect(thrownBy(() => reader.push(garbage)).code).toBe('PROVIDER_PROTOCOL_ERROR');
  });
});
