/**
 * Reads Gemini streamGenerateContent chunks into ProviderChunks (pure, no HTTP). Gemini sends
 * function calls whole and often without ids, so ids are made here; a thought signature on a
 * non-thought part arrives as an empty thinking delta carrying it, just before that part.
 */
import type { GenerateContentResponse, Part } from '@google/genai';
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

export class GeminiStreamReader {
  private usage: UsageStats | undefined;
  private finished = false;

  constructor(
    private readonly provider = 'gemini',
    private readonly newId: IdFactory = defaultIdFactory,
  ) {}

  push(chunk: GenerateContentResponse): ProviderChunk[] {
    if (typeof chunk !== 'object' || chunk === null) throw this.protocolError(chunk);
    const candidates: unknown = chunk.candidates;
    if (candidates !== undefined && !Array.isArray(candidates)) throw this.protocolError(chunk);
    if (chunk.usageMetadata) this.readUsage(chunk.usageMetadata);
    if (chunk.candidates?.[0]?.finishReason !== undefined) this.finished = true;
    const parts = chunk.candidates?.[0]?.content?.parts ?? [];
    return parts.flatMap((part) => this.readPart(part));
  }

  /** Usage, once the stream has ended; without a finishReason it was cut short (protocol error). */
  finish(): ProviderChunk[] {
    if (!this.finished) {
      throw new ProviderError({
        code: 'PROVIDER_PROTOCOL_ERROR',
        provider: this.provider,
        message:
          'Gemini provider: the stream ended before a finishReason; the reply is incomplete.',
      });
    }
    return this.usage ? [usageChunk(this.usage)] : [];
  }

  /** Completion tokens include thinking tokens, as OpenAI's completion_tokens do. */
  private readUsage(meta: NonNullable<GenerateContentResponse['usageMetadata']>): void {
    this.usage = makeUsage({
      promptTokens: meta.promptTokenCount ?? 0,
      completionTokens: (meta.candidatesTokenCount ?? 0) + (meta.thoughtsTokenCount ?? 0),
      ...(meta.totalTokenCount === undefined ? {} : { totalTokens: meta.totalTokenCount }),
      cachedTokens: meta.cachedContentTokenCount,
    });
  }

  private readPart(part: Part): ProviderChunk[] {
    if (part.thought === true) {
      const text = part.text ?? '';
      if (text === '' && part.thoughtSignature === undefined) return [];
      return [thinkingChunk(text, part.thoughtSignature)];
    }
    const out: ProviderChunk[] = [];
    if (part.thoughtSignature !== undefined) out.push(thinkingChunk('', part.thoughtSignature));
    if (typeof part.text === 'string' && part.text !== '') out.push(textChunk(part.text));
    if (part.functionCall) {
      const call = part.functionCall;
      out.push(toolCallChunk(call.id || this.newId(), call.name ?? '', call.args ?? {}));
    }
    return out;
  }

  private protocolError(chunk: unknown): ProviderError {
    return new ProviderError({
      code: 'PROVIDER_PROTOCOL_ERROR',
      provider: this.provider,
      message: `Gemini provider: unexpected stream chunk ${JSON.stringify(chunk)?.slice(0, 200)}`,
    });
  }
}
