/**
 * Reads OpenAI chat-completion stream chunks into ProviderChunks (pure, no HTTP): text and
 * reasoning deltas pass through at once; tool-call argument fragments are collected per index and
 * each call is emitted whole when the choice finishes (or the stream ends); usage comes last.
 */
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { UsageStats } from '../services/history/IContent.js';
import {
  defaultIdFactory,
  makeUsage,
  textChunk,
  thinkingChunk,
  toolCallChunk,
  usageChunk,
  type IdFactory,
} from './chunks.js';
import type { ProviderChunk } from './IProvider.js';
import { ProviderError } from './ProviderError.js';
import { parseToolArguments } from './toolPayloads.js';

interface PendingCall {
  id: string;
  name: string;
  args: string;
}

/** Non-standard reasoning fields sent by OpenAI-compatible servers (DeepSeek, vLLM, OpenRouter). */
interface ReasoningDelta {
  readonly reasoning_content?: unknown;
  readonly reasoning?: unknown;
}

export class OpenAIStreamReader {
  private readonly calls = new Map<number, PendingCall>();
  private usage: UsageStats | undefined;
  private finished = false;

  constructor(
    private readonly provider = 'openai',
    private readonly newId: IdFactory = defaultIdFactory,
  ) {}

  /** The chunks one stream event produces. Throws PROVIDER_PROTOCOL_ERROR on a shapeless event. */
  push(chunk: ChatCompletionChunk): ProviderChunk[] {
    if (typeof chunk !== 'object' || chunk === null || !Array.isArray(chunk.choices)) {
      throw this.protocolError(chunk);
    }
    const out: ProviderChunk[] = [];
    if (chunk.usage) this.usage = this.readUsage(chunk.usage);
    for (const choice of chunk.choices) {
      const delta = choice.delta as (typeof choice.delta & ReasoningDelta) | undefined;
      if (delta) {
        const reasoning = delta.reasoning_content ?? delta.reasoning;
        if (typeof reasoning === 'string' && reasoning !== '') out.push(thinkingChunk(reasoning));
        if (typeof delta.content === 'string' && delta.content !== '') {
          out.push(textChunk(delta.content));
        }
        for (const fragment of delta.tool_calls ?? []) this.collect(fragment);
      }
      if (choice.finish_reason != null) {
        this.finished = true;
        out.push(...this.flushCalls());
      }
    }
    return out;
  }

  /**
   * What is left when the stream ends: unflushed tool calls, then usage. A stream that never gave
   * a finish_reason was cut short: PROVIDER_PROTOCOL_ERROR.
   */
  finish(): ProviderChunk[] {
    if (!this.finished) {
      throw new ProviderError({
        code: 'PROVIDER_PROTOCOL_ERROR',
        provider: this.provider,
        message:
          'OpenAI-compatible provider: the stream ended before any finish_reason; the reply is incomplete.',
      });
    }
    const out = this.flushCalls();
    if (this.usage) out.push(usageChunk(this.usage));
    return out;
  }

  private collect(fragment: ChatCompletionChunk.Choice.Delta.ToolCall): void {
    const index = typeof fragment.index === 'number' ? fragment.index : this.calls.size;
    let call = this.calls.get(index);
    if (!call) {
      call = { id: '', name: '', args: '' };
      this.calls.set(index, call);
    }
    if (fragment.id) call.id = fragment.id;
    if (fragment.function?.name) call.name += fragment.function.name;
    if (fragment.function?.arguments) call.args += fragment.function.arguments;
  }

  private flushCalls(): ProviderChunk[] {
    const ordered = [...this.calls.entries()].sort(([a], [b]) => a - b);
    this.calls.clear();
    return ordered.map(([, call]) =>
      toolCallChunk(call.id || this.newId(), call.name, parseToolArguments(call.args)),
    );
  }

  private readUsage(usage: NonNullable<ChatCompletionChunk['usage']>): UsageStats {
    return makeUsage({
      promptTokens: usage.prompt_tokens,
      completionTokens: usage.completion_tokens,
      totalTokens: usage.total_tokens,
      cachedTokens: usage.prompt_tokens_details?.cached_tokens ?? undefined,
    });
  }

  private protocolError(chunk: unknown): ProviderError {
    return new ProviderError({
      code: 'PROVIDER_PROTOCOL_ERROR',
      provider: this.provider,
      message: `OpenAI-compatible provider: a stream chunk has no 'choices' array: ${JSON.stringify(chunk)?.slice(0, 200)}`,
    });
  }
}
