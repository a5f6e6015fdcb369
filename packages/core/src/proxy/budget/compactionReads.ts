/**
 * The read each standing compaction was last confirmed on. A request the read cache resumes from
 * that read has its leading messages byte for byte those of the read, at the same offsets; when
 * they reach the compaction's cut, the compacted messages are the ones the compaction was
 * confirmed on, so the request repeats it without reading them again (no hash of the region).
 */
import type { ReadKey } from '../wire/requestReadCache.js';
import type { BudgetState, WireCompactionState } from './compactWire.js';

/** What of a request's read this needs: its own key and the kept read it resumed from. */
export interface ReadIdentity {
  readonly key?: ReadKey;
  readonly resumedFrom?: { readonly key: ReadKey; readonly messages: number };
}

export class CompactionReads {
  /** Keyed by the compaction object: a new or extended compaction is another object. */
  private readonly confirmed = new WeakMap<WireCompactionState, ReadKey>();
  /** Requests whose standing compaction was taken on the verified prefix, and the others. */
  readonly counts = { verified: 0, checked: 0 };

  /**
   * Leading messages of the request known to be those the standing compaction was confirmed on
   * (0: none known).
   */
  verifiedMessages(state: BudgetState, read: ReadIdentity): number {
    const standing = state.compaction;
    if (standing === undefined) return 0;
    const from = read.resumedFrom;
    const verified =
      from !== undefined && this.confirmed.get(standing) === from.key ? from.messages : 0;
    if (verified >= standing.cut) this.counts.verified++;
    else this.counts.checked++;
    return verified;
  }

  /**
   * After the budget ran on the request: when it applied a compaction (`applied`), the standing
   * one holds for this read.
   */
  record(state: BudgetState, read: ReadIdentity, applied: boolean): void {
    const standing = state.compaction;
    if (applied && standing !== undefined && read.key !== undefined) {
      this.confirmed.set(standing, read.key);
    }
  }
}
