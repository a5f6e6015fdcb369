/**
 * The read each standing compaction was last confirmed on. A request the read cache resumes from
 * that read has its leading messages byte for byte those of the read, at the same offsets; when
 * they reach the compaction's cut, the compacted messages are the ones the compaction was
 * confirmed on, so the request repeats it without reading them again (no hash of the region).
 * A compaction is known by its value (start, cut, region hash), not its object: one restored from
 * a shared store (another replica extended nothing since) is the one this replica confirmed.
 */
import type { ReadKey } from '../wire/keptRead.js';
import type { BudgetState, WireCompactionState } from './compactWire.js';
import type { VerifiedRegion } from './regionHash.js';

/** What of a request's read this needs: its own key and the kept read it resumed from. */
export interface ReadIdentity {
  readonly key?: ReadKey;
  readonly resumedFrom?: { readonly key: ReadKey; readonly messages: number };
}

/** A compaction's identity: a new or extended one has another. */
const identity = (compaction: WireCompactionState): string =>
  `${compaction.start}:${compaction.cut}:${compaction.regionHash}`;

export class CompactionReads {
  /** The compaction each read confirmed (reads are dropped with the read cache's entries). */
  private readonly confirmed = new WeakMap<ReadKey, WireCompactionState>();
  /** Requests whose standing compaction was taken on the verified prefix, and the others. */
  readonly counts = { verified: 0, checked: 0 };

  /**
   * Leading messages of the request known to be those of the read it resumed from, with that
   * read's confirmed compaction (counted `verified` when it is the standing one and covers it).
   */
  verifiedRegion(state: BudgetState, read: ReadIdentity): VerifiedRegion {
    const standing = state.compaction;
    const from = read.resumedFrom;
    if (standing === undefined || from === undefined) {
      if (standing !== undefined) this.counts.checked++;
      return { messages: 0 };
    }
    const confirmed = this.confirmed.get(from.key);
    const same = confirmed !== undefined && identity(confirmed) === identity(standing);
    if (same && from.messages >= standing.cut) this.counts.verified++;
    else this.counts.checked++;
    const known = confirmed !== undefined && confirmed.cut <= from.messages;
    return {
      messages: same ? from.messages : 0,
      ...(known
        ? { mark: { start: confirmed.start, cut: confirmed.cut, hash: confirmed.regionHash } }
        : {}),
    };
  }

  /**
   * After the budget ran on the request: when it applied a compaction (`applied`), the standing
   * one holds for this read.
   */
  record(state: BudgetState, read: ReadIdentity, applied: boolean): void {
    const standing = state.compaction;
    if (applied && standing !== undefined && read.key !== undefined) {
      this.confirmed.set(read.key, standing);
    }
  }
}
