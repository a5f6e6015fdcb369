import { testCompressionHandler } from '../test-utils/testCompressionHandler.js';
import { describe, expect, it, vi } from 'vitest';
import { ScriptedProvider } from '../test-utils/ScriptedProvider.js';
import { HistoryService } from '../services/history/HistoryService.js';
import type { IContent, ToolCallBlock, ToolResponseBlock } from '../services/history/IContent.js';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';
import {
  ChatCancelledError,
  ChatStepLimitError,
  ContextOverflowError,
  type ToolExecutor,
} from './chatTypes.js';
import { GeminiChat } from './geminiChat.js';
import type { ChatEvent } from './chatTypes.js';
import type { GenerateRequest, ProviderChunk } from '../providers/IProvider.js';

const chars: TokenCounter = { countText: (text) => text.length };

function echoTools(
  run: (call: ToolCallBlock) => Promise<string> = (c) => Promise.resolve(`ran ${c.name}`),
): ToolExecutor {
  return {
    schemas: () => [{ name: 'grep', description: 'search', parameters: { type: 'object' } }],
    execute: async (call): Promise<ToolResponseBlock> => ({
      type: 'tool_response',
      callId: call.id,
      toolName: call.name,
      result: await run(call),
    }),
  };
}

function makeChat(
  provider: ScriptedProvider,
  tools: ToolExecutor = echoTools(),
  settings: EphemeralSettings = {},
) {
  const history = new HistoryService({ tokenCounter: chars });
  const { handler: compression } = testCompressionHandler({
    history,
    settings: {
      'compression.strategy': 'top-down-truncation',
      'context-limit': 100_000,
      ...settings,
    },
    provider,
    overrides: { completionReserve: () => 0 },
  });
  const chat = new GeminiChat({
    history,
    compression,
    provider: () => provider,
    tools,
    systemPrompt: () => 'be brief',
  });
  return { chat, history, compression };
}

/** Every tool call in the history has exactly one response, and every response a call. */
function expectConsistent(history: readonly IContent[]): void {
  const calls = history.flatMap((e) =>
    e.blocks.flatMap((b) => (b.type === 'tool_call' ? [b.id] : [])),
  );
  const responses = history.flatMap((e) =>
    e.blocks.flatMap((b) => (b.type === 'tool_response' ? [b.callId] : [])),
  );
  expect([...responses].sort()).toEqual([...calls].sort());
}

const speakers = (h: readonly IContent[]) => h.map((e) => e.speaker);

describe('GeminiChat turn loop', () => {
  it('records the user message and the streamed reply, and returns the text', async () => {
    const provider = new ScriptedProvider([
      { text: ['Hel', 'lo'], usage: { promptTokens: 5, completionTokens: 2, totalTokens: 7 } },
    ]);
    const { chat, history } = makeChat(provider);
    const summary = await chat.sendMessage('hi');
    expect(summary).toMatchObject({
      text: 'Hello',
      modelCalls: 1,
      toolCalls: 0,
      usage: { totalTokens: 7 },
    });
    expect(speakers(history.getRawHistory())).toEqual(['human', 'ai']);
    expect(history.getRawHistory()[1]?.blocks).toEqual([{ type: 'text', text: 'Hello' }]);
    expect(provider.requests[0]?.systemPrompt).toBe('be brief');
    expect(provider.requests[0]?.tools?.map((t) => t.name)).toEqual(['grep']);
  });

  it('#13.2 a retry notice from the provider becomes a retry event and never part of the reply', async () => {
    const notice = {
      reason: 'rate-limited',
      status: 429,
      nextAttempt: 2,
      maxAttempts: 4,
      delayMs: 10,
    } as const;
    class RetryingProvider extends ScriptedProvider {
      override async *generate(request: GenerateRequest): AsyncGenerator<ProviderChunk> {
        yield { content: { speaker: 'ai', blocks: [] }, retry: notice };
        yield* super.generate(request);
      }
    }
    const { chat, history } = makeChat(new RetryingProvider([{ text: 'after the wait' }]));
    const events: ChatEvent[] = [];
    for await (const event of chat.sendMessageStream('hi')) events.push(event);
    expect(events.map((e) => e.type)).toEqual([
      'user_message',
      'retry',
      'text_delta',
      'ai_message',
    ]);
    expect(events[1]).toEqual({ type: 'retry', retry: notice });
    expect(history.getRawHistory()[1]?.blocks).toEqual([{ type: 'text', text: 'after the wait' }]);
  });

  it('runs requested tools, records their results, and loops until the model stops calling tools', async () => {
    const provider = new ScriptedProvider([
      {
        text: 'Searching',
        toolCalls: [
          { id: 'a', name: 'grep', parameters: { pattern: 'x' } },
          { id: 'b', name: 'grep' },
        ],
      },
      { text: 'Found it.' },
    ]);
    const { chat, history } = makeChat(provider);
    const summary = await chat.sendMessage('find x');
    expect(summary).toMatchObject({ text: 'Found it.', modelCalls: 2, toolCalls: 2 });
    expect(speakers(history.getRawHistory())).toEqual(['human', 'ai', 'tool', 'ai']);
    const toolEntry = history.getRawHistory()[2];
    expect(toolEntry?.blocks.map((b) => b.type === 'tool_response' && b.callId)).toEqual([
      'a',
      'b',
    ]);
    // The second model call saw the results.
    expect(JSON.stringify(provider.requests[1]?.contents)).toContain('ran grep');
  });

  it('yields events in order', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ id: 'a', name: 'grep' }] },
      { text: 'done' },
    ]);
    const { chat } = makeChat(provider);
    const types: string[] = [];
    for await (const event of chat.sendMessageStream('go')) types.push(event.type);
    expect(types).toEqual([
      'user_message',
      'tool_call',
      'ai_message',
      'tool_result',
      'text_delta',
      'ai_message',
    ]);
  });

  it('REQ-HD-002.6 sets the density dirty flag for the user message, the AI reply and the tool results', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ id: 'a', name: 'grep' }] },
      { text: 'done' },
    ]);
    const { chat, compression } = makeChat(provider);
    const markDirty = vi.spyOn(compression, 'markDirty');
    const recorded: string[] = [];
    chat.events.on('contentRecorded', ({ content }) => recorded.push(content.speaker));
    await chat.sendMessage('go');
    expect(recorded).toEqual(['human', 'ai', 'tool', 'ai']);
    expect(markDirty).toHaveBeenCalledTimes(4);
  });

  it('runs the pre-send step before every model call, with the pending message counted first', async () => {
    const provider = new ScriptedProvider([
      { toolCalls: [{ id: 'a', name: 'grep' }] },
      { text: 'done' },
    ]);
    const { chat, compression } = makeChat(provider);
    const preSend = vi.spyOn(compression, 'ensureCompressionBeforeSend');
    await chat.sendMessage('twelve chars');
    expect(preSend.mock.calls.map((c) => c[1])).toEqual(['twelve chars'.length, 0]);
  });

  it('a message that cannot fit fails with ContextOverflowError and is not recorded', async () => {
    const provider = new ScriptedProvider([{ text: 'never' }]);
    const { chat, history } = makeChat(provider, echoTools(), { 'context-limit': 10 });
    await expect(chat.sendMessage('this message is far too long')).rejects.toBeInstanceOf(
      ContextOverflowError,
    );
    expect(history.length).toBe(0);
    expect(provider.requests).toHaveLength(0);
  });

  it('a provider failure mid-stream records nothing of the partial reply', async () => {
    const provider = new ScriptedProvider([
      { text: ['partial '], error: new Error('connection reset') },
    ]);
    const { chat, history } = makeChat(provider);
    await expect(chat.sendMessage('hi')).rejects.toThrow('connection reset');
    expect(speakers(history.getRawHistory())).toEqual(['human']);
  });

  it('stops after the step limit with every call answered', async () => {
    const provider = new ScriptedProvider(
      Array.from({ length: 5 }, (_, i) => ({ toolCalls: [{ id: `c${i}`, name: 'grep' }] })),
    );
    const { history, compression } = makeChat(provider);
    const chat = new GeminiChat({
      history,
      compression,
      provider: () => provider,
      tools: echoTools(),
      maxModelCalls: 3,
    });
    await expect(chat.sendMessage('loop')).rejects.toBeInstanceOf(ChatStepLimitError);
    expect(provider.requests).toHaveLength(3);
    expectConsistent(history.getRawHistory());
  });
});

describe('GeminiChat cancellation keeps the history consistent', () => {
  it('abort while streaming: the partial reply is dropped', async () => {
    const controller = new AbortController();
    const provider = new ScriptedProvider([
      () => {
        controller.abort();
        return { text: ['a', 'b'] };
      },
    ]);
    const { chat, history } = makeChat(provider);
    await expect(chat.sendMessage('hi', { signal: controller.signal })).rejects.toBeInstanceOf(
      ChatCancelledError,
    );
    expect(speakers(history.getRawHistory())).toEqual(['human']);
  });

  it('abort while a tool runs: the remaining calls get CANCELLED responses', async () => {
    const controller = new AbortController();
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { id: 'a', name: 'grep' },
          { id: 'b', name: 'grep' },
        ],
      },
    ]);
    const tools = echoTools((call) => {
      if (call.id === 'a') controller.abort();
      return Promise.resolve('ok');
    });
    const { chat, history } = makeChat(provider, tools);
    await expect(chat.sendMessage('go', { signal: controller.signal })).rejects.toBeInstanceOf(
      ChatCancelledError,
    );
    const raw = history.getRawHistory();
    expectConsistent(raw);
    const responses = raw[2]?.blocks as ToolResponseBlock[];
    expect(responses[0]?.result).toBe('ok');
    expect(responses[1]?.error).toMatch(/^CANCELLED/);
  });

  it('a consumer that stops iterating mid-tools still leaves every call answered', async () => {
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { id: 'a', name: 'grep' },
          { id: 'b', name: 'grep' },
        ],
      },
    ]);
    const { chat, history } = makeChat(provider);
    for await (const event of chat.sendMessageStream('go')) {
      if (event.type === 'ai_message') break;
    }
    expectConsistent(history.getRawHistory());
    expect(speakers(history.getRawHistory())).toEqual(['human', 'ai', 'tool']);
  });

  it('a tool executor that throws still leaves every call answered, and the error propagates', async () => {
    const provider = new ScriptedProvider([
      {
        toolCalls: [
          { id: 'a', name: 'grep' },
          { id: 'b', name: 'grep' },
        ],
      },
    ]);
    const tools = echoTools(() => Promise.reject(new Error('executor bug')));
    const { chat, history } = makeChat(provider, tools);
    await expect(chat.sendMessage('go')).rejects.toThrow('executor bug');
    expectConsistent(history.getRawHistory());
  });
});
