/**
 * IProvider over the OpenAI chat-completions streaming API, through the official SDK. The base URL
 * is configurable, so the same class talks to OpenAI, OpenRouter, Ollama, vLLM, LM Studio and the
 * llama.cpp server. SDK retries are off: streamWithRetry applies Dense's one retry policy.
 */
import { inspect } from 'node:util';
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { GenerateRequest, IProvider, ProviderChunk } from './IProvider.js';
import { toOpenAIMessages, toOpenAITools } from './openaiConversion.js';
import { OpenAIStreamReader } from './openaiStream.js';
import {
  DEFAULT_TIMEOUT_MS,
  describeProvider,
  resolveRetryRuntime,
  type ProviderDescription,
  type ProviderOptions,
} from './ProviderOptions.js';
import { streamWithRetry, type RetryRuntime } from './streamWithRetry.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAIProviderOptions extends ProviderOptions {
  /**
   * Which request field carries the output limit. OpenAI's current models take
   * `max_completion_tokens`; many local servers only know `max_tokens`. Default: the former for
   * api.openai.com, the latter elsewhere.
   */
  readonly maxTokensField?: 'max_completion_tokens' | 'max_tokens';
}

export class OpenAIProvider implements IProvider {
  readonly name = 'openai';
  readonly model: string;
  readonly baseUrl: string;
  readonly #client: OpenAI;
  readonly #apiKey: string;
  readonly #runtime: RetryRuntime;
  readonly #options: OpenAIProviderOptions;

  constructor(options: OpenAIProviderOptions) {
    this.model = options.model;
    this.baseUrl = options.baseUrl ?? OPENAI_DEFAULT_BASE_URL;
    this.#apiKey = options.apiKey;
    this.#options = options;
    this.#runtime = resolveRetryRuntime(options);
    this.#client = new OpenAI({
      apiKey: options.apiKey,
      baseURL: this.baseUrl,
      maxRetries: 0,
      timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      logLevel: 'off',
    });
  }

  generate(request: GenerateRequest): AsyncIterable<ProviderChunk> {
    const body = this.buildBody(request);
    return streamWithRetry({
      provider: this.name,
      signal: request.signal,
      runtime: this.#runtime,
      secrets: [this.#apiKey],
      open: () => this.attempt(body, request.signal),
    });
  }

  /** The request body sent for `request` (exposed for tests and debugging; holds no secret). */
  buildBody(request: GenerateRequest): ChatCompletionCreateParamsStreaming {
    const tools = toOpenAITools(request.tools);
    const limitField = this.#options.maxTokensField ?? this.defaultLimitField();
    return {
      model: request.model ?? this.model,
      messages: toOpenAIMessages(request.contents, request.systemPrompt),
      stream: true,
      stream_options: { include_usage: true },
      ...(tools.length > 0 ? { tools } : {}),
      ...(request.maxOutputTokens === undefined ? {} : { [limitField]: request.maxOutputTokens }),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    };
  }

  private defaultLimitField(): 'max_completion_tokens' | 'max_tokens' {
    return this.baseUrl.startsWith(OPENAI_DEFAULT_BASE_URL)
      ? 'max_completion_tokens'
      : 'max_tokens';
  }

  private async *attempt(
    body: ChatCompletionCreateParamsStreaming,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ProviderChunk, void, undefined> {
    const stream = await this.#client.chat.completions.create(body, signal ? { signal } : {});
    const reader = new OpenAIStreamReader(this.name, this.#options.idFactory);
    for await (const chunk of stream) yield* reader.push(chunk);
    if (signal?.aborted === true) return;
    yield* reader.finish();
  }

  toJSON(): ProviderDescription {
    return { name: this.name, model: this.model, baseUrl: this.baseUrl };
  }

  toString(): string {
    return describeProvider(this.toJSON());
  }

  [inspect.custom](): string {
    return this.toString();
  }
}
