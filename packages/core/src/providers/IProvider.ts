/**
 * The one way core reaches an LLM. A provider converts Dense's content model to its wire format,
 * streams the reply back as `IContent` pieces, and reports usage at the end.
 */
import type { IContent, UsageStats } from '../services/history/IContent.js';
import type { RetryNotice } from './retryPolicy.js';

/** A tool as the model sees it: a name, what it does, and a JSON schema for its parameters. */
export interface ToolSchema {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

export interface GenerateRequest {
  readonly contents: readonly IContent[];
  readonly systemPrompt?: string;
  readonly tools?: readonly ToolSchema[];
  /** Overrides the provider's configured model for this call. */
  readonly model?: string;
  readonly maxOutputTokens?: number;
  readonly temperature?: number;
  readonly signal?: AbortSignal;
  /**
   * Entries of `contents` after which a provider with explicit prompt caching puts an extra cache
   * breakpoint (the anchors a deep density batch reads from). Others ignore it.
   */
  readonly cacheAnchors?: readonly IContent[];
}

/**
 * One piece of a streamed reply. Text and thinking arrive as deltas (consecutive text blocks are
 * to be concatenated); tool calls arrive whole, with parsed parameters; the last chunk carries
 * `usage`. Every chunk has `speaker: 'ai'`.
 */
export interface ProviderChunk {
  readonly content: IContent;
  readonly usage?: UsageStats;
  /**
   * Set on a chunk with no blocks that announces a retry wait (reason, attempt, delay); it is
   * not part of the reply.
   */
  readonly retry?: RetryNotice;
}

export interface IProvider {
  /** Provider family: 'openai', 'anthropic', 'gemini', or a test/offline provider's name. */
  readonly name: string;
  /** The model used when a request does not name one. */
  readonly model: string;
  /**
   * Streams one completion. Throws a typed provider error (after the provider's own retries) on
   * HTTP, network or protocol failures, and an abort error when `signal` fires.
   */
  generate(request: GenerateRequest): AsyncIterable<ProviderChunk>;
  /** Exact prompt token count, where the API offers it. */
  countTokens?(contents: readonly IContent[], signal?: AbortSignal): Promise<number>;
}
