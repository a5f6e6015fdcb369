/**
 * An in-memory IProvider for tests: replies come from a script, and every request is recorded so
 * tests can assert what the model was sent.
 */
import { textBlock, toolCallBlock, type UsageStats } from '../services/history/IContent.js';
import type { GenerateRequest, IProvider, ProviderChunk } from '../providers/IProvider.js';

export interface ScriptedToolCall {
  readonly id?: string;
  readonly name: string;
  readonly parameters?: unknown;
}

export interface ScriptedReplySpec {
  /** Streamed as one chunk per element (a string is one chunk). */
  readonly text?: string | readonly string[];
  readonly toolCalls?: readonly ScriptedToolCall[];
  readonly usage?: UsageStats;
  /** Thrown after the chunks above have been yielded. */
  readonly error?: Error;
}

export type ScriptedReply = ScriptedReplySpec | ((request: GenerateRequest) => ScriptedReplySpec);

export class ScriptExhaustedError extends Error {
  readonly code = 'SCRIPT_EXHAUSTED';
}

export class ScriptedProvider implements IProvider {
  readonly requests: GenerateRequest[] = [];
  private readonly replies: ScriptedReply[];
  private callCounter = 0;

  constructor(
    replies: readonly ScriptedReply[] = [],
    readonly name = 'scripted',
    readonly model = 'scripted-model',
  ) {
    this.replies = [...replies];
  }

  push(...replies: readonly ScriptedReply[]): this {
    this.replies.push(...replies);
    return this;
  }

  get remaining(): number {
    return this.replies.length;
  }

  async *generate(request: GenerateRequest): AsyncIterable<ProviderChunk> {
    this.requests.push(request);
    const next = this.replies.shift();
    if (next === undefined) {
      throw new ScriptExhaustedError(
        `ScriptedProvider: no reply left for request ${this.requests.length}.`,
      );
    }
    const reply = typeof next === 'function' ? next(request) : next;
    const texts =
      reply.text === undefined ? [] : typeof reply.text === 'string' ? [reply.text] : reply.text;
    for (const text of texts) {
      request.signal?.throwIfAborted();
      yield { content: { speaker: 'ai', blocks: [textBlock(text)] } };
      await Promise.resolve();
    }
    for (const call of reply.toolCalls ?? []) {
      const id = call.id ?? `scripted-call-${++this.callCounter}`;
      yield {
        content: { speaker: 'ai', blocks: [toolCallBlock(id, call.name, call.parameters ?? {})] },
      };
    }
    if (reply.error) throw reply.error;
    if (reply.usage) yield { content: { speaker: 'ai', blocks: [] }, usage: reply.usage };
  }
}

/** The text of the most recent request's contents, joined (for "was X sent?" assertions). */
export function sentText(request: GenerateRequest | undefined): string {
  return JSON.stringify(request?.contents ?? []);
}
