/**
 * The scripted "model" of the offline demo: an IProvider that answers each request with the next
 * step of the current turn (a sentence and tool calls, or the final reply). Deterministic call
 * ids let the runner look up what each call was meant to do.
 */
import {
  textBlock,
  toolCallBlock,
  type GenerateRequest,
  type IProvider,
  type ProviderChunk,
} from '@dense/core';
import { DemoScriptError } from './DemoScriptError.js';
import type { DemoToolCall, DemoTurn } from './script/scriptBuilders.js';

interface QueuedReply {
  readonly text?: string;
  readonly calls: readonly { readonly id: string; readonly call: DemoToolCall }[];
}

export interface DemoModelOptions {
  /** Awaited before each reply, with the request the session sent (the runner measures it). */
  readonly onRequest?: (request: GenerateRequest) => Promise<void> | void;
}

export class DemoModel implements IProvider {
  readonly name = 'demo';
  readonly model = 'scripted-demo-model';
  /** Requests answered so far. */
  calls = 0;
  private queue: QueuedReply[] = [];
  private readonly expectations = new Map<string, DemoToolCall>();
  private turnNumber = 0;

  constructor(private readonly options: DemoModelOptions = {}) {}

  /** Queues the replies of `turn` (1-based `turnNumber`); the previous turn must be used up. */
  startTurn(turnNumber: number, turn: DemoTurn): void {
    if (this.queue.length > 0) {
      throw new DemoScriptError(
        this.turnNumber,
        `${this.queue.length} scripted replies were never requested`,
      );
    }
    this.turnNumber = turnNumber;
    this.queue = turn.steps.map((step, s) => ({
      ...(step.say === undefined ? {} : { text: step.say }),
      calls: step.calls.map((call, c) => ({ id: `t${turnNumber}-s${s + 1}-c${c + 1}`, call })),
    }));
    this.queue.push({ text: turn.reply, calls: [] });
    for (const reply of this.queue) {
      for (const { id, call } of reply.calls) this.expectations.set(id, call);
    }
  }

  /** Replies of the current turn not yet requested. */
  get pending(): number {
    return this.queue.length;
  }

  /** The scripted call behind a call id, to check its result. */
  expectation(callId: string): DemoToolCall | undefined {
    return this.expectations.get(callId);
  }

  async *generate(request: GenerateRequest): AsyncIterable<ProviderChunk> {
    await this.options.onRequest?.(request);
    const reply = this.queue.shift();
    if (reply === undefined) {
      throw new DemoScriptError(
        this.turnNumber,
        'the session asked the model for more replies than the turn has',
      );
    }
    this.calls++;
    if (reply.text !== undefined)
      yield { content: { speaker: 'ai', blocks: [textBlock(reply.text)] } };
    for (const { id, call } of reply.calls) {
      yield { content: { speaker: 'ai', blocks: [toolCallBlock(id, call.name, call.args)] } };
    }
  }
}
