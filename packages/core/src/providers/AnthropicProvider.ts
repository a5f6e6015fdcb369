/**
 * IProvider over the Anthropic Messages streaming API, through the official SDK (SDK retries off;
 * streamWithRetry applies Dense's policy). Requires an output limit: the request's, else
 * DEFAULT_ANTHROPIC_MAX_OUTPUT capped by the model's known maximum. Marks the prompt for caching
 * (see cache/cacheRules.ts for how that is priced).
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { MessageCreateParamsStreaming } from '@anthropic-ai/sdk/resources/messages';
import { toAnthropicMessages, toAnthropicTools } from './anthropicConversion.js';
import { AnthropicStreamReader } from './anthropicStream.js';
import type { GenerateRequest, ProviderChunk } from './IProvider.js';
import { getModelLimits } from './modelLimits.js';
import { DEFAULT_TIMEOUT_MS, type ProviderOptions } from './ProviderOptions.js';
import { SdkProvider } from './SdkProvider.js';

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
const EPHEMERAL = { type: 'ephemeral' } as const;
/** Output limit when the request sets none (the API requires one). */
export const DEFAULT_ANTHROPIC_MAX_OUTPUT = 16_384;

export class AnthropicProvider extends SdkProvider<MessageCreateParamsStreaming, Anthropic> {
  readonly name = 'anthropic';

  constructor(options: ProviderOptions) {
    super(options, ANTHROPIC_DEFAULT_BASE_URL);
  }

  protected createClient(): Promise<Anthropic> {
    return import('@anthropic-ai/sdk').then(
      ({ default: Anthropic }) =>
        new Anthropic({
          apiKey: this.options.apiKey,
          baseURL: this.baseUrl,
          maxRetries: 0,
          timeout: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          logLevel: 'off',
        }),
    );
  }

  buildParams(request: GenerateRequest): MessageCreateParamsStreaming {
    const model = request.model ?? this.model;
    const tools = toAnthropicTools(request.tools);
    const knownMax = getModelLimits(model)?.maxOutputTokens;
    const maxTokens =
      request.maxOutputTokens ?? Math.min(DEFAULT_ANTHROPIC_MAX_OUTPUT, knownMax ?? Infinity);
    return {
      model,
      max_tokens: maxTokens,
      messages: toAnthropicMessages(request.contents, request.cacheAnchors),
      stream: true,
      // Prompt caching: one breakpoint after the system prompt (tools and system stay cached
      // whatever happens to the history), the automatic one on the last cacheable block and at
      // most two cache anchors inside the history (scheduler/CacheAnchorTracker.ts).
      cache_control: EPHEMERAL,
      ...(request.systemPrompt
        ? { system: [{ type: 'text', text: request.systemPrompt, cache_control: EPHEMERAL }] }
        : {}),
      ...(tools.length > 0 ? { tools } : {}),
      ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    };
  }

  protected async *attempt(
    body: MessageCreateParamsStreaming,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ProviderChunk, void, undefined> {
    const client = await this.client();
    const stream = await client.messages.create(body, signal ? { signal } : {});
    const reader = new AnthropicStreamReader(this.name);
    for await (const event of stream) yield* reader.push(event);
    if (signal?.aborted === true) return;
    yield* reader.finish();
  }
}
