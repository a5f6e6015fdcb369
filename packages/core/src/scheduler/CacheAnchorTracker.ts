/**
 * Cache anchors: extra prompt-cache breakpoints Dense's own requests carry so that a
 * deep density batch rewrites only the history after its first edit, not the whole prompt.
 *
 * With explicit caching (Anthropic) a request can read only a prefix that an earlier request
 * marked with a breakpoint, found at most `lookbackBlocks` blocks before one of its own
 * breakpoints. Marking only the newest block (what agents do) means an edit deeper than the
 * lookback finds nothing and the whole prompt is written again. An anchor is a breakpoint at the
 * entry boundary just before the first pending edit: set while the edit waits (it sits inside the
 * prefix the request reads anyway, so marking it bills no token), it is still intact when the batch
 * is applied, and the applying request marks it again so its cache is found.
 *
 * An anchor is a count of history entries: the breakpoint goes after entry `anchor − 1`.
 */

/** Anchors per request: Anthropic allows four breakpoints; the system prompt and the newest
 * block take two. */
export const MAX_CACHE_ANCHORS = 2;

export interface CacheAnchorInput {
  /** Anchors the previous request carried. */
  readonly sent: readonly number[];
  /** Lowest entry index edited since the previous request; undefined when none. */
  readonly firstEditedSinceSend: number | undefined;
  /** Lowest entry index of the density edits still pending; undefined when none. */
  readonly firstPending: number | undefined;
  /** Entries the request sends. */
  readonly entries: number;
}

/**
 * The anchors of the next request, ascending: the deepest anchor of the previous request whose
 * prefix is still intact (the cache a batch applied now reads), and one just before the first
 * pending edit (the cache the next batch will read). Never the whole history (the newest block is
 * marked anyway) and never empty.
 */
export function chooseCacheAnchors(input: CacheAnchorInput): number[] {
  const edited = input.firstEditedSinceSend ?? Number.POSITIVE_INFINITY;
  const intact = input.sent.filter((a) => a > 0 && a <= edited && a < input.entries);
  const chosen = new Set<number>();
  if (intact.length > 0) chosen.add(Math.max(...intact));
  const pending = input.firstPending;
  if (pending !== undefined && pending > 0 && pending < input.entries) chosen.add(pending);
  return [...chosen].sort((a, b) => a - b).slice(-MAX_CACHE_ANCHORS);
}

/** Tracks what the anchors of the next request depend on, between two sends. */
export class CacheAnchorTracker {
  private sent: readonly number[] = [];
  private firstEdited: number | undefined;
  private firstPending: number | undefined;

  /** Density applied edits from `index` on (compression: from 0). */
  onEdited(index: number): void {
    this.firstEdited = Math.min(this.firstEdited ?? index, index);
  }

  /** Edits from `index` on still wait; undefined: nothing waits. */
  onPending(index: number | undefined): void {
    this.firstPending = index;
  }

  /** The history was replaced (compression): nothing of it is pending any more. */
  onRewritten(): void {
    this.onEdited(0);
    this.firstPending = undefined;
  }

  /** Chooses the anchors of the request about to be sent and remembers them. */
  onSend(entries: number): readonly number[] {
    this.sent = chooseCacheAnchors({
      sent: this.sent,
      firstEditedSinceSend: this.firstEdited,
      firstPending: this.firstPending,
      entries,
    });
    this.firstEdited = undefined;
    return this.sent;
  }
}
