/**
 * What the three SDK-backed providers share: the key held in a private field (never logged or
 * serialised), Dense's retry wrapper around each attempt, and a secret-free description for
 * toJSON / toString / inspect. A subclass builds its SDK client, its request parameters, and reads
 * one attempt's stream.
 */
import { inspect } from 'node:util';
import { callSignal } from './callSignal.js';
import type { IdFactory } from './chunks.js';
import type { GenerateRequest, IProvider, ProviderChunk } from './IProvider.js';
import {
  describeProvider,
  resolveRetryRuntime,
  type ProviderDescription,
  type ProviderOptions,
} from './ProviderOptions.js';
import { streamWithRetry, type RetryRuntime } from './streamWithRetry.js';

export abstract class SdkProvider<
  Params,
  Client,
  Options extends ProviderOptions = ProviderOptions,
> implements IProvider {
  abstract readonly name: string;
  readonly model: string;
  readonly baseUrl: string;
  /** Holds the API key: private, so never logged, enumerated or serialised. */
  readonly #options: Options;
  readonly #runtime: RetryRuntime;
  #client: Promise<Client> | undefined;

  protected constructor(options: Options, defaultBaseUrl: string) {
    this.model = options.model;
    this.baseUrl = options.baseUrl ?? defaultBaseUrl;
    this.#options = options;
    this.#runtime = resolveRetryRuntime(options);
  }

  /** The construction options, for building the SDK client (they hold the key). */
  protected get options(): Options {
    return this.#options;
  }

  async *generate(request: GenerateRequest): AsyncGenerator<ProviderChunk, void, undefined> {
    const params = this.buildParams(request);
    const call = callSignal(request.signal);
    try {
      yield* streamWithRetry({
        provider: this.name,
        signal: call.signal,
        runtime: this.#runtime,
        secrets: this.secrets(),
        open: () => this.attempt(params, call.signal),
      });
    } finally {
      call.dispose();
    }
  }

  /** The SDK request for `request` (exposed for tests and debugging; holds no secret). */
  abstract buildParams(request: GenerateRequest): Params;

  /** One attempt: open the stream and yield its chunks; errors are mapped by the retry wrapper. */
  protected abstract attempt(
    params: Params,
    signal: AbortSignal | undefined,
  ): AsyncGenerator<ProviderChunk, void, undefined>;

  /** Builds the SDK client; called once, on the first request (importing an SDK is not cheap). */
  protected abstract createClient(): Promise<Client>;

  /** The SDK client, created on first use so starting the CLI does not load every SDK. */
  protected client(): Promise<Client> {
    this.#client ??= this.createClient();
    return this.#client;
  }

  /** Strings to redact from any error text. */
  protected secrets(): readonly string[] {
    return [this.#options.apiKey];
  }

  protected get idFactory(): IdFactory | undefined {
    return this.#options.idFactory;
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
