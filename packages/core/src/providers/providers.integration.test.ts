/**
 * Each provider through its REAL SDK against the loopback mock server: streamed text, usage,
 * tool-call round trips, parallel calls, pruned histories, and every fault the retry policy
 * handles. No test reaches the network; sleeps are injected, so nothing really waits.
 */
import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HistoryService } from '../services/history/HistoryService.js';
import {
  createToolResponse,
  getText,
  type ContentBlock,
  type IContent,
  type ToolCallBlock,
} from '../services/history/IContent.js';
import { charEstimateTokenCounter } from '../services/history/TokenCounter.js';
import { human, readFile, toolCall, toolResult } from '../test-utils/historyBuilders.js';
import {
  collectChunks,
  collectUntilError,
  mockHttpError,
  mockText,
  recordingSleep,
  startMockServer,
  streamedText,
  type MockProviderKind,
  type MockServer,
  type RecordingSleep,
} from '../test-utils/mockServer/index.js';
import { createProvider } from './createProvider.js';
import type { IProvider, ProviderChunk } from './IProvider.js';
import { ProviderError } from './ProviderError.js';

/** How each API's request body shows tool calls and results, for assertions. */
interface BodyReader {
  /** Ids of tool calls in the body, in order. */
  callIds(body: unknown): string[];
  /** [callId, text the model sees] for each tool result in the body, in order. */
  results(body: unknown): [string, string][];
}

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

const readers: Record<MockProviderKind, BodyReader> = {
  openai: {
    callIds: (body) =>
      list((body as Json).messages).flatMap((m) => list(m.tool_calls).map((c) => String(c.id))),
    results: (body) =>
      list((body as Json).messages)
        .filter((m) => m.role === 'tool')
        .map((m) => [String(m.tool_call_id), String(m.content)]),
  },
  anthropic: {
    callIds: (body) =>
      list((body as Json).messages).flatMap((m) =>
        list(m.content)
          .filter((b) => b.type === 'tool_use')
          .map((b) => String(b.id)),
      ),
    results: (body) =>
      list((body as Json).messages).flatMap((m) =>
        list(m.content)
          .filter((b) => b.type === 'tool_result')
          .map((b): [string, string] => [String(b.tool_use_id), String(b.content)]),
      ),
  },
  gemini: {
    callIds: (body) =>
      list((body as Json).contents).flatMap((c) =>
        list(c.parts).flatMap((p) => (p.functionCall ? [String((p.functionCall as Json).id)] : [])),
      ),
    results: (body) =>
      list((body as Json).contents).flatMap((c) =>
        list(c.parts).flatMap((p): [string, string][] => {
          const r = p.functionResponse as Json | undefined;
          return r ? [[String(r.id), String((r.response as Json).output)]] : [];
        }),
      ),
  },
};

/** Records the reply in history only if the whole stream succeeded (what the orchestrator does). */
async function runTurn(
  provider: IProvider,
  history: HistoryService,
  signal?: AbortSignal,
): Promise<ProviderChunk[]> {
  const chunks = await collectChunks(
    provider.generate({ contents: history.getCurated(), ...(signal ? { signal } : {}) }),
  );
  const blocks: ContentBlock[] = chunks.flatMap((c) => c.content.blocks);
  history.add({ speaker: 'ai', blocks });
  return chunks;
}

function toolCalls(chunks: readonly ProviderChunk[]): ToolCallBlock[] {
  return chunks.flatMap((c) =>
    c.content.blocks.filter((b): b is ToolCallBlock => b.type === 'tool_call'),
  );
}

describe.each(['openai', 'anthropic', 'gemini'] as const)('%s provider through its SDK', (kind) => {
  let server: MockServer;
  let sleep: RecordingSleep;
  let provider: IProvider;
  const reader = readers[kind];

  beforeAll(async () => {
    server = await startMockServer();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.reset();
    sleep = recordingSleep();
    provider = createProvider(
      {
        provider: kind,
        model: 'test-model',
        apiKey: 'sk-test-secret-key',
        baseUrl: server.baseUrlFor(kind),
      },
      {},
      { sleep: sleep.sleep, random: () => 0.5 },
    );
  });

  it('streams a text reply as deltas, then usage with cached tokens', async () => {
    server.enqueue({
      kind: 'stream',
      text: ['Hel', 'lo ', 'world'],
      usage: { promptTokens: 120, completionTokens: 9, cachedTokens: 100 },
    });
    const chunks = await collectChunks(
      provider.generate({ contents: [human('hi')], systemPrompt: 'Be terse.' }),
    );
    expect(chunks.slice(0, 3).map((c) => getText(c.content))).toEqual(['Hel', 'lo ', 'world']);
    expect(chunks.at(-1)?.usage).toEqual({
      promptTokens: 120,
      completionTokens: 9,
      totalTokens: 129,
      cachedTokens: 100,
    });
    expect(chunks.every((c) => c.content.speaker === 'ai')).toBe(true);
    const request = server.requests[0]!;
    expect(request.provider).toBe(kind);
    expect(request.authPresent).toBe(true);
    expect(JSON.stringify(request)).not.toContain('sk-test-secret-key');
    expect(JSON.stringify(request.body)).toContain('Be terse.');
    expect(JSON.stringify(request)).toContain('test-model');
  });

  it('tool-call round trip: the call, our result in the next request, the final answer', async () => {
    server.enqueue(
      {
        kind: 'stream',
        text: ['Reading.'],
        toolCalls: [{ id: 'call_rt_1', name: 'read_file', arguments: { file_path: 'src/a.ts' } }],
      },
      mockText('a.ts exports one function.'),
    );
    const history = new HistoryService({ tokenCounter: charEstimateTokenCounter });
    history.add(human('What is in src/a.ts?'));
    const first = await runTurn(provider, history);
    const [call] = toolCalls(first);
    expect(call).toMatchObject({
      id: 'call_rt_1',
      name: 'read_file',
      parameters: { file_path: 'src/a.ts' },
    });
    history.add(
      createToolResponse({
        callId: call!.id,
        toolName: call!.name,
        result: 'export function f() {}',
      }),
    );
    const second = await runTurn(provider, history);
    expect(streamedText(second)).toBe('a.ts exports one function.');
    const body = server.requests[1]!.body;
    expect(reader.callIds(body)).toEqual(['call_rt_1']);
    expect(reader.results(body)).toEqual([['call_rt_1', 'export function f() {}']]);
  });

  it('parallel tool calls arrive whole, each with its own id and arguments', async () => {
    server.enqueue({
      kind: 'stream',
      toolCalls: [
        { id: 'p1', name: 'read_file', arguments: { file_path: 'a.ts' } },
        { id: 'p2', name: 'read_file', arguments: { file_path: 'b.ts' } },
        { id: 'p3', name: 'glob', arguments: { pattern: '**/*.md' } },
      ],
    });
    const calls = toolCalls(await collectChunks(provider.generate({ contents: [human('read')] })));
    expect(calls.map((c) => [c.id, c.name, c.parameters])).toEqual([
      ['p1', 'read_file', { file_path: 'a.ts' }],
      ['p2', 'read_file', { file_path: 'b.ts' }],
      ['p3', 'glob', { pattern: '**/*.md' }],
    ]);
  });

  it('malformed tool arguments arrive as the raw string, not a crash', async () => {
    server.enqueue({
      kind: 'stream',
      toolCalls: [{ id: 'm1', name: 'ls', arguments: '{"path": ' }],
    });
    const calls = toolCalls(await collectChunks(provider.generate({ contents: [human('ls')] })));
    expect(calls).toHaveLength(1);
    expect(calls[0]!.parameters).toBe('{"path": ');
  });

  it('sends a density-pruned history without dangling tool call ids', async () => {
    server.enqueue(mockText('ok'));
    const [keptCall, keptResult] = readFile('kept_1', 'b.ts', 'B v2');
    const history: IContent[] = [
      human('refactor a.ts and b.ts'),
      // the read of a.ts (call + response) was pruned after a later write; its pointer is gone.
      toolResult({ id: 'pruned_0', name: 'read_file', result: 'orphan: its call was pruned' }),
      keptCall,
      keptResult,
      toolCall(
        { id: 'unanswered_9', name: 'read_file', parameters: { file_path: 'c.ts' } },
        'Checking c.ts.',
      ),
      human('continue'),
    ];
    await collectChunks(provider.generate({ contents: history }));
    const body = server.requests[0]!.body;
    expect(reader.callIds(body)).toEqual(['kept_1']);
    expect(reader.results(body)).toEqual([['kept_1', 'B v2']]);
    const sent = JSON.stringify(body);
    expect(sent).not.toContain('pruned_0');
    expect(sent).not.toContain('unanswered_9');
    expect(sent).toContain('Checking c.ts.');
  });

  it('retries a 429 after the Retry-After the server asked for, then succeeds', async () => {
    server.enqueue(
      mockHttpError(429, { message: 'rate limited', headers: { 'retry-after': '3' } }),
      mockText('after the wait'),
    );
    const chunks = await collectChunks(provider.generate({ contents: [human('hi')] }));
    expect(streamedText(chunks)).toBe('after the wait');
    expect(sleep.delays).toEqual([3000]);
    expect(server.requests).toHaveLength(2);
  });

  it('gives up on a persistent 500 after the attempt bound with a typed error', async () => {
    for (let i = 0; i < 4; i++)
      server.enqueue(mockHttpError(500, { message: 'upstream exploded' }));
    const { chunks, error } = await collectUntilError(
      provider.generate({ contents: [human('hi')] }),
    );
    expect(chunks.filter((chunk) => chunk.retry === undefined)).toEqual([]);
    expect(chunks.map((chunk) => chunk.retry?.reason)).toEqual([
      'server-error',
      'server-error',
      'server-error',
    ]);
    expect(server.requests).toHaveLength(4);
    expect(sleep.delays).toHaveLength(3);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      code: 'PROVIDER_HTTP_ERROR',
      provider: kind,
      status: 500,
      attempts: 4,
    });
    const message = (error as Error).message;
    expect(message).toContain('HTTP 500');
    expect(message).toContain('upstream exploded');
    expect(message).toMatch(/OpenAI|Anthropic|Gemini/);
  });

  it('does not retry a client error such as 400', async () => {
    server.enqueue(mockHttpError(400, { message: 'bad request field' }));
    const { error } = await collectUntilError(provider.generate({ contents: [human('hi')] }));
    expect(error).toMatchObject({ code: 'PROVIDER_HTTP_ERROR', status: 400 });
    expect(server.requests).toHaveLength(1);
  });

  it('a disconnect mid-stream is a typed network error, not retried, and history stays unchanged', async () => {
    server.enqueue({ kind: 'stream', text: ['partial ', 'answer'], ending: 'disconnect' });
    const history = new HistoryService({ tokenCounter: charEstimateTokenCounter });
    history.add(human('hi'));
    const before = history.getCurated();
    const failure = await runTurn(provider, history).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'PROVIDER_NETWORK_ERROR', provider: kind });
    expect(history.getCurated()).toEqual(before);
    expect(server.requests).toHaveLength(1);
  });

  it('a malformed chunk is a typed protocol error, and history stays unchanged', async () => {
    server.enqueue({ kind: 'stream', text: ['fine so far'], ending: 'malformed' });
    const history = new HistoryService({ tokenCounter: charEstimateTokenCounter });
    history.add(human('hi'));
    const failure = await runTurn(provider, history).catch((e: unknown) => e);
    expect(failure).toMatchObject({ code: 'PROVIDER_PROTOCOL_ERROR', provider: kind });
    expect(history.length).toBe(1);
    expect(server.requests).toHaveLength(1);
  });

  it('abort mid-stream stops at once with PROVIDER_ABORTED and yields nothing more', async () => {
    server.enqueue({ kind: 'stream', text: ['first', 'second'], ending: 'hold' });
    const controller = new AbortController();
    const iterator = provider
      .generate({ contents: [human('hi')], signal: controller.signal })
      [Symbol.asyncIterator]();
    const first = await iterator.next();
    expect(first.done).toBe(false);
    controller.abort();
    // The server holds the connection open forever: only a prompt abort can settle this.
    const rest: ProviderChunk[] = [];
    const error = await (async () => {
      for (;;) {
        const step = await iterator.next();
        if (step.done === true) return undefined;
        rest.push(step.value);
      }
    })().catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'PROVIDER_ABORTED', provider: kind });
    expect(rest).toEqual([]);
    expect(await iterator.next()).toEqual({ done: true, value: undefined });
  });

  it('#12.6 a turn of 12 model calls on one signal leaves no abort listener behind (no MaxListeners warning)', async () => {
    const controller = new AbortController();
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning.name);
    };
    process.on('warning', onWarning);
    try {
      for (let call = 0; call < 12; call++) {
        server.enqueue({ kind: 'stream', text: [`reply ${call}`] });
        await collectChunks(
          provider.generate({ contents: [human('hi')], signal: controller.signal }),
        );
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('an already-aborted signal sends no request at all', async () => {
    const controller = new AbortController();
    controller.abort();
    const { error } = await collectUntilError(
      provider.generate({ contents: [human('hi')], signal: controller.signal }),
    );
    expect(error).toMatchObject({ code: 'PROVIDER_ABORTED' });
    expect(server.requests).toHaveLength(0);
  });

  it('keeps the key out of errors and logs even when the server echoes it', async () => {
    const logged: unknown[] = [];
    const log = (message: string, data?: unknown) => logged.push(message, data);
    const logger = { debug: log, info: log, warn: log, error: log };
    const keyed = createProvider(
      { provider: kind, apiKey: 'sk-echoed-secret-123', baseUrl: server.baseUrlFor(kind) },
      {},
      { logger, sleep: sleep.sleep },
    );
    server.enqueue(
      mockHttpError(401, { message: 'Incorrect API key provided: sk-echoed-secret-123' }),
    );
    const { error } = await collectUntilError(keyed.generate({ contents: [human('hi')] }));
    expect(error).toMatchObject({ code: 'PROVIDER_HTTP_ERROR', status: 401 });
    expect((error as Error).message).toContain('[redacted]');
    const everything = JSON.stringify([
      logged,
      error,
      (error as Error).message,
      (error as Error).cause,
      String((error as Error).cause),
    ]);
    expect(logged.length).toBeGreaterThan(0);
    expect(everything).not.toContain('sk-echoed-secret-123');
  });

  it('retries a refused connection, then reports a typed network error', async () => {
    const closed = await startMockServer();
    const baseUrl = closed.baseUrlFor(kind);
    await closed.close();
    const offline = createProvider(
      { provider: kind, apiKey: 'k', baseUrl },
      {},
      { sleep: sleep.sleep, random: () => 0 },
    );
    const { error } = await collectUntilError(offline.generate({ contents: [human('hi')] }));
    expect(error).toMatchObject({ code: 'PROVIDER_NETWORK_ERROR', attempts: 4 });
    expect(sleep.delays).toHaveLength(3);
  });
});
