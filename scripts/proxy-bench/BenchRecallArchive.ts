/**
 * The proxy bench's recall archive: what `dense proxy` keeps for `dense recall`, held in memory
 * instead of under `DENSE_HOME` (a bench run leaves nothing on disk), bounded per conversation as
 * the real archive is (oldest original evicted first, never the one just written). Expiry is left
 * out: a replayed session is far shorter than the archive's time to live. The grounding measure
 * asks it which text an id stands for.
 */
import {
  DEFAULT_RECALL_CONVERSATION_BYTES,
  RecallArchive,
  type ArchiveLookup,
  type RecallEntry,
} from '../../packages/core/src/recall/RecallArchive.js';

interface Kept {
  readonly conversation: string;
  readonly text: string;
  readonly bytes: number;
}

export class BenchRecallArchive extends RecallArchive {
  /** Insertion order is age order: a refreshed id moves to the end. */
  private readonly kept = new Map<string, Kept>();
  private readonly bytesOf = new Map<string, number>();

  constructor(private readonly boundBytes = DEFAULT_RECALL_CONVERSATION_BYTES) {
    super({ dir: '/nonexistent/bench-recall-archive' });
  }

  override put(conversationId: string, entries: readonly RecallEntry[]): Promise<void> {
    for (const entry of entries) {
      this.drop(entry.id);
      const bytes = Buffer.byteLength(entry.text, 'utf8');
      this.kept.set(entry.id, { conversation: conversationId, text: entry.text, bytes });
      this.bytesOf.set(conversationId, (this.bytesOf.get(conversationId) ?? 0) + bytes);
    }
    const newest = entries.at(-1)?.id;
    for (const [id, kept] of this.kept) {
      if ((this.bytesOf.get(kept.conversation) ?? 0) <= this.boundBytes) continue;
      if (id !== newest) this.drop(id);
    }
    return Promise.resolve();
  }

  override lookup(id: string): Promise<ArchiveLookup> {
    const kept = this.kept.get(id);
    return Promise.resolve(
      kept === undefined
        ? { kind: 'missing', reason: 'unknown' }
        : { kind: 'found', bytes: Buffer.from(kept.text, 'utf8') },
    );
  }

  /** The exact original kept under `id`, or `undefined`. */
  textOf(id: string): string | undefined {
    return this.kept.get(id)?.text;
  }

  private drop(id: string): void {
    const kept = this.kept.get(id);
    if (kept === undefined) return;
    this.kept.delete(id);
    this.bytesOf.set(kept.conversation, (this.bytesOf.get(kept.conversation) ?? 0) - kept.bytes);
  }
}
