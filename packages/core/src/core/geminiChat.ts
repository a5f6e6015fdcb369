/**
 * The provider-agnostic turn loop (named `geminiChat` after the spec; it serves every provider).
 * It records the user's message, makes room, streams the model's reply, runs the tools it asks
 * for, records their results, and repeats until the model stops calling tools. Context management
 * is delegated to CompressionHandler; tools to a ToolExecutor. The history never holds a partial
 * reply or a tool call without its responses.
 */
import { TypedEmitter } from '../utils/TypedEmitter.js';
import type { HistoryService } from '../services/history/HistoryService.js';
import {
  createUserMessage,
  isToolCallBlock,
  type IContent,
  type ToolCallBlock,
  type ToolResponseBlock,
  type UsageStats,
} from '../services/history/IContent.js';
import type { GenerateRequest, IProvider, ProviderChunk } from '../providers/IProvider.js';
import { assembleReply } from './assembleReply.js';
import {
  ChatCancelledError,
  ChatStepLimitError,
  type ChatEvent,
  type ChatEvents,
  type SendOptions,
  type ToolExecutor,
  type TurnSummary,
} from './chatTypes.js';
import type { CompressionHandler } from './CompressionHandler.js';
import { withKeptOriginals, type KeptOriginal } from '../services/recall/keptOriginals.js';

/** A tool's response as the model will see it, and the whole output when that is shortened. */
export interface LimitedToolResponse {
  readonly response: ToolResponseBlock;
  readonly original?: KeptOriginal;
}

export interface GeminiChatOptions {
  readonly history: HistoryService;
  readonly compression: CompressionHandler;
  /** The provider to call now (the session may switch providers between turns). */
  readonly provider: () => IProvider;
  readonly tools: ToolExecutor;
  readonly systemPrompt?: () => string | undefined;
  readonly maxOutputTokens?: () => number | undefined;
  readonly temperature?: () => number | undefined;
  /** Model calls allowed for one user message before the loop stops (default 100). */
  readonly maxModelCalls?: number;
  readonly now?: () => number;
  /**
   * What to record for a tool's response, given the history before it is recorded (e.g. an
   * identical re-read becomes a short reply naming the copy still in context). May be async (it
   * may count tokens). Default: as is.
   */
  readonly reviseToolResponse?: (
    call: ToolCallBlock,
    response: ToolResponseBlock,
  ) => ToolResponseBlock | Promise<ToolResponseBlock>;
  /**
   * What to record for a user message, given the history after the pre-send step (e.g. an
   * `@` inclusion identical to one still in context becomes a note naming it). Default: as is.
   */
  readonly reviseUserMessage?: (message: IContent) => IContent;
  /**
   * Applied to every tool response before `reviseToolResponse` (the size cap on one output). An
   * `original` is kept in the tool entry's metadata, where the recall store finds it.
   */
  readonly limitToolResponse?: (response: ToolResponseBlock) => Promise<LimitedToolResponse>;
}

const ZERO_USAGE: UsageStats = { promptTokens: 0, completionTokens: 0, totalTokens: 0 };

function addUsage(a: UsageStats, b: UsageStats | undefined): UsageStats {
  if (!b) return a;
  return {
    promptTokens: a.promptTokens + b.promptTokens,
    completionTokens: a.completionTokens + b.completionTokens,
    totalTokens: a.totalTokens + b.totalTokens,
    cachedTokens: (a.cachedTokens ?? 0) + (b.cachedTokens ?? 0),
  };
}

function replyText(content: IContent): string {
  return content.blocks.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

function chunkEvents(chunk: ProviderChunk): ChatEvent[] {
  return chunk.content.blocks.flatMap((block): ChatEvent[] => {
    if (block.type === 'text') return [{ type: 'text_delta', text: block.text }];
    if (block.type === 'thinking') return [{ type: 'thinking_delta', text: block.thought }];
    if (block.type === 'tool_call') return [{ type: 'tool_call', call: block }];
    return [];
  });
}

function cancelledResponse(call: ToolCallBlock): ToolResponseBlock {
  return {
    type: 'tool_response',
    callId: call.id,
    toolName: call.name,
    result: '',
    error: 'CANCELLED: the user cancelled the turn before this tool ran.',
  };
}

export class GeminiChat {
  readonly events = new TypedEmitter<ChatEvents>();

  constructor(private readonly options: GeminiChatOptions) {}

  get history(): HistoryService {
    return this.options.history;
  }

  /** Runs a whole turn and returns its summary (the streaming events are consumed internally). */
  async sendMessage(message: string | IContent, options: SendOptions = {}): Promise<TurnSummary> {
    const stream = this.sendMessageStream(message, options);
    for (;;) {
      const next = await stream.next();
      if (next.done) return next.value;
    }
  }

  /**
   * Runs a whole turn, yielding events as they happen; the generator's return value is the turn
   * summary. Throws ContextOverflowError (message not recorded), provider errors (partial reply not
   * recorded), ChatCancelledError (every recorded tool call has its responses) or ChatStepLimitError.
   */
  async *sendMessageStream(
    message: string | IContent,
    options: SendOptions = {},
  ): AsyncGenerator<ChatEvent, TurnSummary> {
    const promptId = options.promptId ?? `prompt-${this.now()}`;
    const user =
      typeof message === 'string' ? createUserMessage(message, { timestamp: this.now() }) : message;
    const pending = await this.options.history.estimateTokensForContents([user]);
    await this.options.compression.ensureCompressionBeforeSend(promptId, pending);
    // Revised after the pre-send step, so a copy it names cannot be compressed away before it.
    const recorded = this.options.reviseUserMessage?.(user) ?? user;
    this.record(recorded);
    yield { type: 'user_message', content: recorded };
    return yield* this.runModelLoop(promptId, options.signal, true);
  }

  /**
   * Asks the model to go on without a new user message (after a step limit, or when a recording
   * has the model speak twice in a row). Same events, errors and guarantees as a send.
   */
  async *continueStream(options: SendOptions = {}): AsyncGenerator<ChatEvent, TurnSummary> {
    const promptId = options.promptId ?? `prompt-${this.now()}`;
    return yield* this.runModelLoop(promptId, options.signal, false);
  }

  private async *runModelLoop(
    promptId: string,
    signal: AbortSignal | undefined,
    preSendDone: boolean,
  ): AsyncGenerator<ChatEvent, TurnSummary> {
    let usage = ZERO_USAGE;
    let toolCalls = 0;
    const limit = this.options.maxModelCalls ?? 100;
    for (let modelCalls = 1; ; modelCalls++) {
      if (modelCalls > 1 || !preSendDone) {
        await this.options.compression.ensureCompressionBeforeSend(promptId, 0);
      }
      const reply = yield* this.streamReply(signal);
      usage = addUsage(usage, reply.usage);
      const calls = reply.content.blocks.filter(isToolCallBlock);
      this.record(reply.content);
      if (calls.length === 0) {
        yield { type: 'ai_message', content: reply.content };
        return { text: replyText(reply.content), modelCalls, toolCalls, usage };
      }
      toolCalls += calls.length;
      yield* this.runTools(reply.content, calls, signal);
      if (modelCalls >= limit) throw new ChatStepLimitError(limit);
    }
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private async revise(
    call: ToolCallBlock,
    response: ToolResponseBlock,
  ): Promise<ToolResponseBlock> {
    return (await this.options.reviseToolResponse?.(call, response)) ?? response;
  }

  private limit(response: ToolResponseBlock): Promise<LimitedToolResponse> {
    return this.options.limitToolResponse?.(response) ?? Promise.resolve({ response });
  }

  private record(content: IContent): void {
    this.options.history.add(content);
    this.options.compression.markDirty();
    this.events.emit('contentRecorded', { content });
  }

  /** Streams one model reply; nothing is recorded here, so a failed stream leaves no trace. */
  private async *streamReply(
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ChatEvent, ReturnType<typeof assembleReply>> {
    const provider = this.options.provider();
    const chunks: ProviderChunk[] = [];
    try {
      for await (const chunk of provider.generate(this.buildRequest(signal))) {
        if (chunk.retry !== undefined) {
          yield { type: 'retry', retry: chunk.retry };
          continue;
        }
        chunks.push(chunk);
        yield* chunkEvents(chunk);
      }
    } catch (error) {
      if (signal?.aborted) throw new ChatCancelledError();
      throw error;
    }
    if (signal?.aborted) throw new ChatCancelledError();
    return assembleReply(chunks, {
      provider: provider.name,
      model: provider.model,
      timestamp: this.now(),
    });
  }

  private buildRequest(signal: AbortSignal | undefined): GenerateRequest {
    const maxOutputTokens = this.options.maxOutputTokens?.();
    const temperature = this.options.temperature?.();
    const systemPrompt = this.options.systemPrompt?.();
    const cacheAnchors = this.options.compression.cacheAnchorEntries();
    return {
      contents: this.options.history.getCurated(),
      ...(cacheAnchors.length === 0 ? {} : { cacheAnchors }),
      tools: this.options.tools.schemas(),
      ...(systemPrompt === undefined ? {} : { systemPrompt }),
      ...(maxOutputTokens === undefined ? {} : { maxOutputTokens }),
      ...(temperature === undefined ? {} : { temperature }),
      ...(signal === undefined ? {} : { signal }),
    };
  }

  /**
   * Runs the calls of a recorded AI entry in order and records all their responses in one tool
   * entry. The recording sits in `finally`: whether the turn is cancelled, a tool executor throws or
   * the consumer stops iterating, every call gets a response (unrun ones a CANCELLED error).
   */
  private async *runTools(
    reply: IContent,
    calls: readonly ToolCallBlock[],
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ChatEvent, void> {
    const responses: ToolResponseBlock[] = [];
    const originals: KeptOriginal[] = [];
    try {
      yield { type: 'ai_message', content: reply };
      for (const call of calls) {
        let response = cancelledResponse(call);
        if (!signal?.aborted) {
          const limited = await this.limit(await this.options.tools.execute(call, signal));
          if (limited.original) originals.push(limited.original);
          response = await this.revise(call, limited.response);
        }
        responses.push(response);
        yield { type: 'tool_result', call, response };
      }
    } finally {
      for (const call of calls.slice(responses.length)) responses.push(cancelledResponse(call));
      const metadata = withKeptOriginals({ timestamp: this.now() }, originals);
      this.record({ speaker: 'tool', blocks: responses, ...(metadata ? { metadata } : {}) });
    }
    if (signal?.aborted) throw new ChatCancelledError();
  }
}
