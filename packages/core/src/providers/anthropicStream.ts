/**
 * Reads Anthropic Messages stream events into ProviderChunks (pure, no HTTP): text and thinking
 * deltas pass through, a signature arrives as an empty thinking delta carrying it, tool_use input
 * fragments are joined and each call is emitted whole at its block's stop; usage comes last.
 */
import type { RawMessageStreamEvent } from '@anthropic-ai/sdk/resources/messages';
import type { UsageStats } from '../services/history/IContent.js';
import { makeUsage, textChunk, thinkingChunk, toolCallChunk, usageChunk } from './chunks.js';
import type { ProviderChunk } from './IProvider.js';
import { ProviderError } from './ProviderError.js';
import { parseToolArguments } from './toolPayloads.js';

interface PendingToolUse {
  readonly id: string;
  readonly name: string;
  readonly initialInput: unknown;
  json: string;
}

interface UsageCounters {
  input: number;
  output: number;
  cacheRead: number | undefined;
  cacheCreation: number;
  seen: boolean;
}

/** The usage fields both message_start and message_delta may carry. */
interface WireUsage {
  readonly input_tokens?: number | null;
  readonly output_tokens?: number | null;
  readonly cache_read_input_tokens?: number | null;
  readonly cache_creation_input_tokens?: number | null;
}

export class AnthropicStreamReader {
  private readonly toolUses = new Map<number, PendingToolUse>();
  private readonly usage: UsageCounters = {
    input: 0,
    output: 0,
    cacheRead: undefined,
    cacheCreation: 0,
    seen: false,
  };

  private stopped = false;

  constructor(private readonly provider = 'anthropic') {}

  push(event: RawMessageStreamEvent): ProviderChunk[] {
    if (typeof event !== 'object' || event === null || typeof event.type !== 'string') {
      throw this.protocolError(event);
    }
    switch (event.type) {
      case 'message_start':
        this.readUsage(event.message.usage);
        return [];
      case 'message_delta':
        this.readUsage(event.usage);
        return [];
      case 'content_block_start':
        return this.startBlock(event.index, event.content_block);
      case 'content_block_delta':
        return this.delta(event.index, event.delta);
      case 'content_block_stop':
        return this.stopBlock(event.index);
      case 'message_stop':
        this.stopped = true;
        return [];
      default:
        return [];
    }
  }

  /** Usage, once the stream has ended; without message_stop it was cut short (protocol error). */
  finish(): ProviderChunk[] {
    if (!this.stopped) {
      throw new ProviderError({
        code: 'PROVIDER_PROTOCOL_ERROR',
        provider: this.provider,
        message:
          'Anthropic provider: the stream ended before message_stop; the reply is incomplete.',
      });
    }
    const out = [...this.toolUses.keys()].flatMap((index) => this.stopBlock(index));
    if (this.usage.seen) out.push(usageChunk(this.usageStats()));
    return out;
  }

  private startBlock(
    index: number,
    block: Extract<RawMessageStreamEvent, { type: 'content_block_start' }>['content_block'],
  ): ProviderChunk[] {
    // Server-tool and citation blocks carry nothing Dense records; they are skipped.
    if (block.type === 'text') return block.text === '' ? [] : [textChunk(block.text)];
    if (block.type === 'thinking') {
      return block.thinking === '' ? [] : [thinkingChunk(block.thinking)];
    }
    if (block.type === 'tool_use') {
      this.toolUses.set(index, {
        id: block.id,
        name: block.name,
        initialInput: block.input,
        json: '',
      });
    }
    return [];
  }

  private delta(
    index: number,
    delta: Extract<RawMessageStreamEvent, { type: 'content_block_delta' }>['delta'],
  ): ProviderChunk[] {
    if (delta.type === 'text_delta') return delta.text === '' ? [] : [textChunk(delta.text)];
    if (delta.type === 'thinking_delta') {
      return delta.thinking === '' ? [] : [thinkingChunk(delta.thinking)];
    }
    if (delta.type === 'signature_delta') return [thinkingChunk('', delta.signature)];
    if (delta.type === 'input_json_delta') {
      const pending = this.toolUses.get(index);
      if (!pending) throw this.protocolError(delta);
      pending.json += delta.partial_json;
    }
    return [];
  }

  private stopBlock(index: number): ProviderChunk[] {
    const pending = this.toolUses.get(index);
    if (!pending) return [];
    this.toolUses.delete(index);
    const parameters =
      pending.json === '' ? (pending.initialInput ?? {}) : parseToolArguments(pending.json);
    return [toolCallChunk(pending.id, pending.name, parameters)];
  }

  private readUsage(usage: WireUsage | null | undefined): void {
    if (!usage) return;
    this.usage.seen = true;
    if (typeof usage.input_tokens === 'number') this.usage.input = usage.input_tokens;
    if (typeof usage.output_tokens === 'number') this.usage.output = usage.output_tokens;
    if (typeof usage.cache_read_input_tokens === 'number') {
      this.usage.cacheRead = usage.cache_read_input_tokens;
    }
    if (typeof usage.cache_creation_input_tokens === 'number') {
      this.usage.cacheCreation = usage.cache_creation_input_tokens;
    }
  }

  /** Anthropic's input_tokens excludes cache reads and writes; promptTokens includes both. */
  private usageStats(): UsageStats {
    const { input, output, cacheRead, cacheCreation } = this.usage;
    return makeUsage({
      promptTokens: input + (cacheRead ?? 0) + cacheCreation,
      completionTokens: output,
      cachedTokens: cacheRead,
    });
  }

  private protocolError(event: unknown): ProviderError {
    return new ProviderError({
      code: 'PROVIDER_PROTOCOL_ERROR',
      provider: this.provider,
      message: `Anthropic provider: unexpected stream event ${JSON.stringify(event)?.slice(0, 200)}`,
    });
  }
}
