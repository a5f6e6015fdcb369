/**
 * What density's history edits did to a live session's prompt cache: tokens it kept
 * from being re-sent, the cached suffix its edits forced to be written again, and the net under
 * each provider's rules (`priceCall`'s multipliers and TTL). An estimate against the same session
 * without density, call by call:
 *
 * - every model call after an edit sends the removed tokens less: on a warm call they would have
 *   been cache reads (saved × read price), on a cold call (gap over the TTL) writes (× write price);
 * - an edit loses the cached prefix from its first edited entry on: on the next warm call that
 *   suffix is written instead of read (× (write − read)); a cold call would write it anyway; with
 *   explicit caching (Anthropic) an edit more than `lookbackBlocks` blocks before the end loses
 *   the whole prompt;
 * - an applied compression rewrites everything: what density removed before it stops counting.
 *
 * Content kept out when it entered (the append-only replies) is priced apart, the same way as a
 * removal that cost no rewrite; with the edits it makes what the session has saved so far, the
 * budget a batch may risk (`savedSoFar`).
 */
import {
  CACHE_PROVIDERS,
  CACHE_RULES,
  isCacheCold,
  priceCall,
  type CacheProviderName,
} from '../cache/index.js';

export interface DensityCacheTotals {
  /** Σ over model calls of the tokens density had removed by then (what was not re-sent). */
  readonly notSentTokens: number;
  /** Σ over edits of the history tokens after the first edited entry (the suffix re-sent uncached). */
  readonly rewrittenTokens: number;
  /** Model calls seen. */
  readonly modelCalls: number;
  /** Per provider, density's cost minus its saving, in base-input-token units (negative: saved). */
  readonly netWeightedTokens: Readonly<Record<CacheProviderName, number>>;
}

function zeroPerProvider(): Record<CacheProviderName, number> {
  return Object.fromEntries(CACHE_PROVIDERS.map((provider) => [provider, 0])) as Record<
    CacheProviderName,
    number
  >;
}

/** Everything a ledger holds, as plain data (a shared store keeps it between requests). */
export interface DensityCacheLedgerSnapshot {
  readonly removed: number;
  readonly kept: number;
  readonly pendingRewrite: number;
  readonly pendingExplicit: number;
  readonly lastCallAt: number | null;
  readonly notSent: number;
  readonly rewritten: number;
  readonly calls: number;
  readonly net: Readonly<Record<CacheProviderName, number>>;
  readonly keptNet: Readonly<Record<CacheProviderName, number>>;
  readonly baseline: Readonly<Record<CacheProviderName, number>>;
  readonly baselineContext: number;
}

export class DensityCacheLedger {
  private removed = 0;
  private kept = 0;
  private pendingRewrite = 0;
  private pendingExplicit = 0;
  private lastCallAt: number | undefined;
  private notSent = 0;
  private rewritten = 0;
  private calls = 0;
  private readonly net = zeroPerProvider();
  private readonly keptNet = zeroPerProvider();

  private readonly baseline = zeroPerProvider();
  private baselineContext = 0;

  /** A reply kept `tokens` out of the history when it entered (no rewrite). */
  keptOut(tokens: number): void {
    this.kept += Math.max(0, tokens);
  }

  /** Content kept out at entry went back into the history (its reply was undone). */
  restored(tokens: number): void {
    this.kept = Math.max(0, this.kept - Math.max(0, tokens));
  }

  /**
   * A density edit removed `removedTokens`; `suffixTokens` follow its first edited entry;
   * `explicitTokens` is what explicit caching loses (the whole prompt when the edit is further
   * back than the lookback; default the suffix).
   */
  edit(removedTokens: number, suffixTokens: number, explicitTokens = suffixTokens): void {
    this.removed += Math.max(0, removedTokens);
    this.pendingRewrite += Math.max(0, suffixTokens);
    this.pendingExplicit += Math.max(0, explicitTokens);
    this.rewritten += Math.max(0, suffixTokens);
  }

  /** An applied compression rewrote the history: earlier removals no longer change a prompt. */
  compressed(): void {
    this.removed = 0;
    this.kept = 0;
    this.pendingRewrite = 0;
    this.pendingExplicit = 0;
  }

  /** A model call was made at `atMs`. */
  modelCall(atMs: number | undefined, contextTokens?: number): void {
    const gapMs =
      atMs === undefined || this.lastCallAt === undefined ? undefined : atMs - this.lastCallAt;
    // The same call without density: the context with what density took out.
    const without =
      contextTokens === undefined ? undefined : contextTokens + this.removed + this.kept;
    for (const provider of CACHE_PROVIDERS) {
      const rules = CACHE_RULES[provider];
      const cold = this.calls > 0 && isCacheCold(rules, gapMs);
      if (without !== undefined) {
        this.baseline[provider] += priceCall(rules, {
          promptTokens: without,
          reusablePrefixTokens: this.baselineContext,
          gapMs,
          hasPrevious: this.calls > 0,
        }).weightedTokens;
      }
      // Kept-out tokens would have been read (or written again, cold); a new entry's first
      // sending, a write, is not counted: the estimate errs on the side of saving less.
      this.keptNet[provider] -= this.kept * (cold ? rules.writeMultiplier : rules.readMultiplier);
      if (cold) {
        this.net[provider] -= this.removed * rules.writeMultiplier;
      } else {
        const explicit = rules.mode === 'explicit';
        const lost = explicit ? this.pendingExplicit : this.pendingRewrite;
        this.net[provider] +=
          lost * ((explicit ? rules.writeMultiplier : 1) - rules.readMultiplier) -
          this.removed * rules.readMultiplier;
      }
    }
    this.notSent += this.removed;
    this.pendingRewrite = 0;
    this.pendingExplicit = 0;
    this.calls++;
    this.lastCallAt = atMs;
    if (without !== undefined) this.baselineContext = without;
  }

  /**
   * What density has saved so far under `provider`'s rules, in base-input-token units: edits net
   * of their rewrites, plus content kept out at entry (negative when the edits cost more).
   */
  savedSoFar(provider: CacheProviderName): number {
    return -(this.net[provider] + this.keptNet[provider]);
  }

  /**
   * An estimate of what the calls so far would have cost without density, under `provider`: each
   * call's context plus what density took out, priced by `priceCall` against the previous one.
   */
  baselineSoFar(provider: CacheProviderName): number {
    return this.baseline[provider];
  }

  /**
   * The most a batch may cost up front under `provider`'s rules (base-input-token units): what
   * density saved so far plus `allowance` × what the session would have cost without it. A bet
   * on the session going on then loses at most that.
   */
  riskBudget(provider: CacheProviderName, allowance: number): number {
    return this.savedSoFar(provider) + allowance * this.baselineSoFar(provider);
  }

  snapshot(): DensityCacheLedgerSnapshot {
    return {
      removed: this.removed,
      kept: this.kept,
      pendingRewrite: this.pendingRewrite,
      pendingExplicit: this.pendingExplicit,
      lastCallAt: this.lastCallAt ?? null,
      notSent: this.notSent,
      rewritten: this.rewritten,
      calls: this.calls,
      net: { ...this.net },
      keptNet: { ...this.keptNet },
      baseline: { ...this.baseline },
      baselineContext: this.baselineContext,
    };
  }

  /** A ledger holding what `snapshot` returned. */
  static restore(snapshot: DensityCacheLedgerSnapshot): DensityCacheLedger {
    const ledger = new DensityCacheLedger();
    ledger.removed = snapshot.removed;
    ledger.kept = snapshot.kept;
    ledger.pendingRewrite = snapshot.pendingRewrite;
    ledger.pendingExplicit = snapshot.pendingExplicit;
    ledger.lastCallAt = snapshot.lastCallAt ?? undefined;
    ledger.notSent = snapshot.notSent;
    ledger.rewritten = snapshot.rewritten;
    ledger.calls = snapshot.calls;
    Object.assign(ledger.net, snapshot.net);
    Object.assign(ledger.keptNet, snapshot.keptNet);
    Object.assign(ledger.baseline, snapshot.baseline);
    ledger.baselineContext = snapshot.baselineContext;
    return ledger;
  }

  totals(): DensityCacheTotals {
    return {
      notSentTokens: this.notSent,
      rewrittenTokens: this.rewritten,
      modelCalls: this.calls,
      netWeightedTokens: { ...this.net },
    };
  }
}
