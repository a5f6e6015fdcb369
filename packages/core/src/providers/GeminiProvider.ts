/**
 * IProvider over Gemini's streamGenerateContent, through @google/genai (SDK retries are off by
 * default and stay off; streamWithRetry applies Dense's policy). The SDK drops response headers
 * from its errors, so each attempt's fetch is wrapped to capture Retry-After.
 */
import { inspect } from 'node:util';
import { GoogleGenAI, type GenerateContentParameters } from '@google/genai';
import { GeminiStreamReader } from './geminiStream.js';
import { toGeminiContents, toGeminiTools } from './geminiConversion.js';
import type { GenerateRequest, IProvider, ProviderChunk } from './IProvider.js';
import {
  DEFAULT_TIMEOUT_MS,
  describeProvider,
  resolveRetryRuntime,
  type ProviderDescription,
  type ProviderOptions,
} from './ProviderOptions.js';
import { retryAfterFromHeaders } from './retryPolicy.js';
import { streamWithRetry, type RetryRuntime } from './streamWithRetry.js';
import { toProviderError } from './toProviderError.js';

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

export class GeminiProvider implements IProvider {
  readonly name = 'gemini';
  readonly model: string;
  readonly baseUrl: string;
  readonly #client: GoogleGenAI;
  readonly #apiKey: string;
  readonly #runtime: RetryRuntime;
  readonly #options: ProviderOptions;

  constructor(options: ProviderOptions) {
    this.model = options.model;
    this.baseUrl = options.baseUrl ?? GEMINI_DEFAULT_BASE_URL;
    this.#apiKey = options.apiKey;
    this.#options = options;
    this.#runtime = resolveRetryRuntime(options);
    this.#client = new GoogleGenAI({
      apiKey: options.apiKey,
      vertexai: false,
      httpOptions: { baseUrl: this.baseUrl, timeout: options.timeoutMs ?? DEFAULT_TIMEOUT_MS },
    });
  }

  generate(request: GenerateRequest): AsyncIterable<ProviderChunk> {
    const params = this.buildParams(request);
    return streamWithRetry({
      provider: this.name,
      signal: request.signal,
      runtime: this.#runtime,
      secrets: [this.#apiKey],
      open: () => this.attempt(params, request.signal),
    });
  }

  /** The SDK parameters for `request` (holds no secret). */
  buildParams(request: GenerateRequest): GenerateContentParameters {
    const tools = toGeminiTools(request.tools);
    return {
      model: request.model ?? this.model,
      contents: toGeminiContents(request.contents),
      config: {
        ...(request.systemPrompt ? { systemInstruction: request.systemPrompt } : {}),
        ...(tools.length > 0 ? { tools } : {}),
        ...(request.maxOutputTokens === undefined
          ? {}
          : { maxOutputTokens: request.maxOutputTokens }),
        ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
      },
    };
  }

  private async *attempt(
    params: GenerateContentParameters,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ProviderChunk, void, undefined> {
    let retryAfterMs: number | undefined;
    const capturingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!response.ok) retryAfterMs = retryAfterFromHeaders(response.headers, Date.now());
      return response;
    };
    const reader = new GeminiStreamReader(this.name, this.#options.idFactory);
    try {
      const stream = await this.#client.models.generateContentStream({
        ...params,
        config: {
          ...params.config,
          httpOptions: { fetch: capturingFetch },
          ...(signal ? { abortSignal: signal } : {}),
        },
      });
      for await (const chunk of stream) yield* reader.push(chunk);
    } catch (error) {
      throw toProviderError(error, {
        provider: this.name,
        secrets: [this.#apiKey],
        ...(signal ? { signal } : {}),
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }
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
