/**
 * IProvider over the OpenAI chat-completions streaming API, through the official SDK. The base URL
 * is configurable, so the same class talks to OpenAI, OpenRouter, Ollama, vLLM, LM Studio and the
 * llama.cpp server. SDK retries are off: streamWithRetry applies Dense's one retry policy.
 */
import type OpenAI from 'openai';
import type { ChatCompletionCreateParamsStreaming } from 'openai/resources/chat/completions';
import type { GenerateRequest, ProviderChunk } from './IProvider.js';
import { toOpenAIMessages, toOpenAITools } from './openaiConversion.js';
import { OpenAIStreamReader } from './openaiStream.js';
import { DEFAULT_TIMEOUT_MS, type ProviderOptions } from './ProviderOptions.js';
import { SdkProvider } from './SdkProvider.js';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

export interface OpenAIProviderOptions extends ProviderOptions {
  /**
   * Which request field carries the output limit. OpenAI's current models take
   * `max_completion_tokens`; many local servers only know `max_tokens`. Default: the former for
   * api.openai.com, the latter elsewhere.
   */
  readonly maxTokensField?: 'max_completion_tokens' | 'max_tokens';
}

export class OpenAIProvider extends SdkProvider<
  ChatCompletionCreateParamsStreaming,
  OpenAI,
  OpenAIProviderOptions
> {
  readonly name = 'openai';

  constructor(options: OpenAIProviderOptions) {
    super(options, OPENAI_DEFAULT_BASE_URL);
  }

  protected createClient(): Promise<OpenAI> {
    return import('openai').then(
      ({ default: OpenAI }) =>
        new OpenAI({
          apiKey: this.options.apiKey,
          baseURL: this.baseUrl,
          maxRetries: 0,
          timeout: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          logLevel: 'off',
        }),
    );
  }

  buildParams(request: GenerateRequest): ChatCompletionCreateParamsStreaming {
    const tools = toOpenAITools(request.tools);
    const limitField = this.options.maxTokensField ?? this.defaultLimitField();
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

  protected async *attempt(
    body: ChatCompletionCreateParamsStreaming,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ProviderChunk, void, undefined> {
    const client = await this.client();
    const stream = await client.chat.completions.create(body, signal ? { signal } : {});
    const reader = new OpenAIStreamReader(this.name, this.idFactory);
    for await (const chunk of stream) yield* reader.push(chunk);
    if (signal?.aborted === true) return;
    yield* reader.finish();
  }
}
