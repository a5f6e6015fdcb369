/**
 * The model of a replayed session: each call gets the next recorded AI entry of the current turn.
 * Before answering it lets the engine measure the request (context tokens, cache prefix); when the
 * turn has no reply left it throws `ReplayTurnEnd`.
 */
import type { GenerateRequest, IProvider, ProviderChunk } from '../providers/IProvider.js';
import type { RecordedEntry } from './planReplay.js';
import { ReplayTurnEnd } from './replayErrors.js';

export type BeforeReply = (request: GenerateRequest, reply: RecordedEntry) => Promise<void>;

export class ReplayProvider implements IProvider {
  readonly name = 'replay';
  readonly model = 'recorded';
  private queue: readonly RecordedEntry[] = [];
  private next = 0;

  constructor(private readonly beforeReply: BeforeReply) {}

  /** The replies of the turn about to run. */
  load(replies: readonly RecordedEntry[]): void {
    this.queue = replies;
    this.next = 0;
  }

  get remaining(): number {
    return this.queue.length - this.next;
  }

  /** Takes the next reply without a model call (the engine's overflow path). */
  take(): RecordedEntry | undefined {
    const reply = this.queue[this.next];
    if (reply !== undefined) this.next++;
    return reply;
  }

  async *generate(request: GenerateRequest): AsyncIterable<ProviderChunk> {
    const reply = this.queue[this.next];
    if (reply === undefined) throw new ReplayTurnEnd();
    this.next++;
    await this.beforeReply(request, reply);
    yield { content: { speaker: 'ai', blocks: reply.entry.blocks } };
  }
}
