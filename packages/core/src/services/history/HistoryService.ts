/**
 * The conversation history and its token accounting.
 *
 * Mutations are synchronous; token counting lags behind on one promise chain (`tokenizerLock`)
 * and is settled by `waitForTokenUpdates()`. Every entry's count is cached by entry identity
 * (entries are immutable), so after a density edit only new or replaced entries are tokenized;
 * the running total always equals a from-scratch recount of the current entries.
 */
import { DenseError } from '../../utils/errors.js';
import { TypedEmitter } from '../../utils/TypedEmitter.js';
import type { DensityResult } from '../../core/compression/types.js';
import { isEmptyAiEntry, type IContent } from './IContent.js';
import { contentTokenText, o200kTokenCounter, type TokenCounter } from './TokenCounter.js';
import { validateDensityResult } from './validateDensityResult.js';

export interface HistoryEvents {
  /** The settled token total changed (after counting, a recalculation or a clear). */
  tokensUpdated: { readonly totalTokens: number };
}

export type HistoryServiceErrorCode = 'HISTORY_COMPRESSION_IN_PROGRESS' | 'HISTORY_NOT_COMPRESSING';

export class HistoryServiceError extends DenseError {
  constructor(
    readonly code: HistoryServiceErrorCode,
    message: string,
  ) {
    super(message);
  }
}

export interface HistoryServiceOptions {
  readonly tokenCounter?: TokenCounter;
}

export class HistoryService {
  readonly events = new TypedEmitter<HistoryEvents>();
  private readonly counter: TokenCounter;
  private readonly history: IContent[] = [];
  private readonly tokenCache = new WeakMap<IContent, number>();
  /** Entries in `history` whose count is not yet known, with how often each occurs. */
  private readonly uncounted = new Map<IContent, number>();
  /** Sum of the known counts of the entries in `history` (uncounted ones excluded). */
  private countedTotal = 0;
  private tokenizerLock: Promise<void> = Promise.resolve();
  private deferredTokenError: { readonly error: unknown } | undefined;
  private compressing = false;
  private readonly queuedDuringCompression: IContent[] = [];

  constructor(options: HistoryServiceOptions = {}) {
    this.counter = options.tokenCounter ?? o200kTokenCounter;
  }

  /** Appends an entry; while a compression rebuild runs, the entry is queued and added after. */
  add(content: IContent): void {
    this.addAll([content]);
  }

  addAll(contents: readonly IContent[]): void {
    if (this.compressing) {
      this.queuedDuringCompression.push(...contents);
      return;
    }
    for (const content of contents) {
      this.history.push(content);
      this.track(content);
    }
    this.scheduleCounting();
  }

  clear(): void {
    this.history.length = 0;
    this.uncounted.clear();
    this.countedTotal = 0;
    this.events.emit('tokensUpdated', { totalTokens: 0 });
  }

  /**
   * Replaces the whole history (a compression result). Not queued: call it between
   * `startCompression()` and `endCompression()`.
   */
  replaceHistory(contents: readonly IContent[]): void {
    this.history.length = 0;
    this.uncounted.clear();
    this.countedTotal = 0;
    for (const content of contents) {
      this.history.push(content);
      this.track(content);
    }
    this.scheduleCounting();
  }

  /** The history without empty AI entries: what a provider is sent. */
  getCurated(): IContent[] {
    return this.history.filter((entry) => !isEmptyAiEntry(entry));
  }

  /**
   * The backing array, read-only. Indices match storage (density results are computed against
   * them). Valid until the next mutation; do not hold on to it across turns.
   */
  getRawHistory(): readonly IContent[] {
    return this.history;
  }

  get length(): number {
    return this.history.length;
  }

  /** The token total of the current entries as counted so far; settle first for an exact value. */
  getTotalTokens(): number {
    return this.countedTotal;
  }

  /** The cached token count of one entry, if it has been counted. */
  tokensOf(content: IContent): number | undefined {
    return this.tokenCache.get(content);
  }

  /**
   * Settles all pending token work. Rethrows (once) a tokenizer failure from counting that
   * nobody awaited, so it is never swallowed.
   */
  async waitForTokenUpdates(): Promise<void> {
    await this.tokenizerLock;
    const failure = this.deferredTokenError;
    if (failure) {
      this.deferredTokenError = undefined;
      throw failure.error;
    }
  }

  /** Token count of arbitrary entries, using (and filling) the per-entry cache. */
  async estimateTokensForContents(contents: readonly IContent[]): Promise<number> {
    let total = 0;
    for (const content of contents) {
      total += this.tokenCache.get(content) ?? (await this.countEntry(content));
    }
    return total;
  }

  /**
   * Recomputes the total for every entry through the tokenizer lock. Only entries never seen
   * before are tokenized; the rest come from the cache. Rejects if tokenizing fails.
   */
  recalculateTotalTokens(): Promise<void> {
    return this.enqueue(async () => {
      for (const content of [...this.history]) {
        if (!this.tokenCache.has(content)) await this.countEntry(content);
      }
      this.rebuildTotals();
    });
  }

  /**
   * Applies a density result: validates it (throwing `DensityResultError` and changing nothing
   * when it is invalid), applies replacements, then removals from the highest index down, then
   * recalculates tokens (only new entries are tokenized) and resolves once they are settled.
   * The total is stale between the edit and that recalculation: await this method.
   */
  async applyDensityResult(result: DensityResult): Promise<void> {
    this.assertNotCompressing('applyDensityResult');
    validateDensityResult(result, this.history.length);
    for (const [index, replacement] of result.replacements) this.history[index] = replacement;
    this.removeIndices(result.removals);
    await this.recalculateTotalTokens();
  }

  /** From now until `endCompression()`, `add()` queues instead of appending. */
  startCompression(): void {
    this.assertNotCompressing('startCompression');
    this.compressing = true;
  }

  /** Ends a compression rebuild and appends, in order, whatever was added meanwhile. */
  endCompression(): void {
    if (!this.compressing) {
      throw new HistoryServiceError(
        'HISTORY_NOT_COMPRESSING',
        'endCompression() was called without a matching startCompression().',
      );
    }
    this.compressing = false;
    this.addAll(this.queuedDuringCompression.splice(0));
  }

  isCompressing(): boolean {
    return this.compressing;
  }

  /** Removes indices (validated, distinct) in one pass; same result as splicing highest-first. */
  private removeIndices(removals: readonly number[]): void {
    if (removals.length === 0) return;
    const doomed = new Set(removals);
    let write = 0;
    for (let read = 0; read < this.history.length; read++) {
      if (!doomed.has(read)) this.history[write++] = this.history[read] as IContent;
    }
    this.history.length = write;
  }

  private assertNotCompressing(operation: string): void {
    if (this.compressing) {
      throw new HistoryServiceError(
        'HISTORY_COMPRESSION_IN_PROGRESS',
        `${operation}() cannot run while a compression rebuild holds the history.`,
      );
    }
  }

  /** Accounts for one more occurrence of `content` in the history. */
  private track(content: IContent): void {
    const known = this.tokenCache.get(content);
    if (known !== undefined) this.countedTotal += known;
    else this.uncounted.set(content, (this.uncounted.get(content) ?? 0) + 1);
  }

  private async countEntry(content: IContent): Promise<number> {
    const count = await this.counter.countText(contentTokenText(content));
    this.tokenCache.set(content, count);
    return count;
  }

  /** Counts whatever is uncounted, in the background; failures surface in waitForTokenUpdates. */
  private scheduleCounting(): void {
    if (this.uncounted.size === 0) {
      // Everything was counted before (re-added entries): the total is already exact.
      this.events.emit('tokensUpdated', { totalTokens: this.countedTotal });
      return;
    }
    this.enqueue(async () => {
      for (const content of [...this.uncounted.keys()]) {
        const count = this.tokenCache.get(content) ?? (await this.countEntry(content));
        const occurrences = this.uncounted.get(content);
        if (occurrences === undefined) continue;
        this.uncounted.delete(content);
        this.countedTotal += count * occurrences;
      }
      this.events.emit('tokensUpdated', { totalTokens: this.countedTotal });
    }).catch((error: unknown) => {
      this.deferredTokenError ??= { error };
    });
  }

  /** The total from the cache alone, synchronously (one pass, no tokenizing). */
  private rebuildTotals(): void {
    this.uncounted.clear();
    let total = 0;
    for (const content of this.history) {
      const known = this.tokenCache.get(content);
      if (known === undefined) this.uncounted.set(content, (this.uncounted.get(content) ?? 0) + 1);
      else total += known;
    }
    this.countedTotal = total;
    this.events.emit('tokensUpdated', { totalTokens: total });
  }

  /** Runs `task` after everything already on the lock; the lock never stays rejected. */
  private enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.tokenizerLock.then(task);
    this.tokenizerLock = run.catch(() => undefined);
    return run;
  }
}

/** Tokenizes every entry, ignoring any cache: the reference the cached total must equal. */
export async function countTokensFromScratch(
  contents: readonly IContent[],
  counter: TokenCounter = o200kTokenCounter,
): Promise<number> {
  let total = 0;
  for (const content of contents) total += await counter.countText(contentTokenText(content));
  return total;
}
