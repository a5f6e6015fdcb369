/**
 * Where the proxy puts what a compaction removes, by recall id, so every id a summary names can
 * be resolved to the original bytes. A small port: the default keeps entries in memory (bounded);
 * a persistent store plugs in through the same interface.
 */

export interface RecallEntry {
  /** `r` and 10 hex digits, as the summary names it. */
  readonly id: string;
  /** The conversation it came from. */
  readonly conversationId: string;
  /** The original text, byte for byte. */
  readonly text: string;
}

export interface RecallSink {
  /** Stores the entries; never throws (a failing store only loses recall, never a request). */
  put(entries: readonly RecallEntry[]): void;
  /** The original text for `id`, when held. */
  get(id: string): string | undefined;
}

/** Keeps the newest `maxEntries` entries in memory. */
export class MemoryRecallSink implements RecallSink {
  private readonly entries = new Map<string, string>();

  constructor(private readonly maxEntries = 10_000) {}

  put(entries: readonly RecallEntry[]): void {
    for (const entry of entries) {
      this.entries.delete(entry.id);
      this.entries.set(entry.id, entry.text);
    }
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  get(id: string): string | undefined {
    return this.entries.get(id);
  }
}
