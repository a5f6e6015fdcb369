/**
 * IProvider over Gemini's streamGenerateContent, through @google/genai (SDK retries are off by
 * default and stay off; streamWithRetry applies Dense's policy). The SDK drops response headers
 * from its errors, so each attempt's fetch is wrapped to capture Retry-After.
 */
import type { GenerateContentParameters, GoogleGenAI } from '@google/genai';
import { GeminiStreamReader } from './geminiStream.js';
import { toGeminiContents, toGeminiTools } from './geminiConversion.js';
import type { GenerateRequest, ProviderChunk } from './IProvider.js';
import { DEFAULT_TIMEOUT_MS, type ProviderOptions } from './ProviderOptions.js';
import { retryAfterFromHeaders } from './retryPolicy.js';
import { SdkProvider } from './SdkProvider.js';
import { toProviderError } from './toProviderError.js';

export const GEMINI_DEFAULT_BASE_URL = 'https://generativelanguage.googleapis.com';

export class GeminiProvider extends SdkProvider<GenerateContentParameters, GoogleGenAI> {
  readonly name = 'gemini';

  constructor(options: ProviderOptions) {
    super(options, GEMINI_DEFAULT_BASE_URL);
  }

  protected createClient(): Promise<GoogleGenAI> {
    return import('@google/genai').then(
      ({ GoogleGenAI }) =>
        new GoogleGenAI({
          apiKey: this.options.apiKey,
          vertexai: false,
          httpOptions: {
            baseUrl: this.baseUrl,
            timeout: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
          },
        }),
    );
  }

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

  protected async *attempt(
    params: GenerateContentParameters,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ProviderChunk, void, undefined> {
    let retryAfterMs: number | undefined;
    const capturingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (!response.ok) retryAfterMs = retryAfterFromHeaders(response.headers, Date.now());
      return response;
    };
    const reader = new GeminiStreamReader(this.name, this.idFactory);
    try {
      const client = await this.client();
      const stream = await client.models.generateContentStream({
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
        secrets: this.secrets(),
        ...(signal ? { signal } : {}),
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      });
    }
    if (signal?.aborted === true) return;
    yield* reader.finish();
  }
}
