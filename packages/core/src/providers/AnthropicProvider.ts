/**
 * IProvider over the Anthropic Messages streaming API, through the official SDK (SDK retries off;
 * streamWithRetry applies Dense's policy). Requires an output limit: the request's, else
 * DEFAULT_ANTHROPIC_MAX_OUTPUT capped by the model's known maximum.
 */
import { inspect } from 'node:util';
import Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import { toAnthropicMessages, toAnthropicTools } from './anthropicConversion.js';
import { AnthropicStreamReader } from './anthropicStream.js';
import type { GenerateRequest, IProvider, ProviderChunk } from './IProvider.js';
import { getModelLimits } from './modelLimits.js';
import {
  DEFAULT_TIMEOUT_MS,
  describeProvider,
  resolveRetryRuntime,
  type ProviderDescription,
  type ProviderOptions,
} from './ProviderOptions.js';
import { streamWithRetry, type RetryRuntime } from './streamWithRetry.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** Output limit when the request sets none (the API requires one). */
export const DEFAULT_ANTHROPIC_MAX_OUTPUT = 16_384;

export class AnthropicProvider implements IProvider {
  readonly name = 'anthropic';
  readonly model: string;
  readonly baseUrl: string;
  readonly #client: Anthropic;
  readonly #apiKey: string;
  readonly #runtime: RetryRuntime;

  constructor(options: ProviderOptions) {
    this.model = options.model;
    this.baseUrl = options.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL;
    this.#apiKey = options.apiKey;
    this.#runtime = resolveRetryRuntime(options);
    this.#client = new Anthropic({
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

  /** The request body sent for `request` (holds no secret). */
  buildBody(request: GenerateRequest): MessageCreateParamsStreaming {
    const model = request.model ?? this.model;
    const tools = toAnthropicTools(request.tools);
    const knownMax = getModelLimits(model)?.maxOutputTokens;
    const maxTokens =
      request.maxOutputTokens ?? Math.min(DEFAULT_ANTHROPIC_MAX_OUTPUT, knownMax ?? Infinity);
    return {
      model,
      max_tokens: maxTokens,
      messages: toAnthropicMessages(request.contents),
      stream: true,
      ...(request.systemPrompt ? { system: request.systemPrompt } : {}),
      ...(tools.length > 0 ? { tools } : {}),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    };
  }

  private async *attempt(
    body: MessageCreateParamsStreaming,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ProviderChunk, void, undefined> {
    const stream = await this.#client.messages.create(body, signal ? { signal } : {});
    const reader = new AnthropicStreamReader(this.name);
    for await (const event of stream) yield* reader.push(event);
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
