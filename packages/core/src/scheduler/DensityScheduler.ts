/**
 * The density schedule's one entry point: whether pending density edits go into the history now
 * (`decideDensityApplication`, priced by the one cache-prefix model), the cache anchors the next
 * request carries, how fast the history grows, and the ledger of what density saved so far (the
 * risk budget a batch may spend).
 *
 * Contract: CompressionHandler calls `step` in its pre-send window, `onSend` when a request
 * leaves, `onRewritten` when the history is replaced and `onCompressed` when a compression was
 * applied; the session calls `onModelCall` after each model reply and `keptOut` when a reply kept
 * content out at entry. `ContextStats` only reads `ledger`. `step` never swallows an error of
 * optimize, validation or token counting.
 */
import type { CacheRules } from '../cache/cacheRules.js';
import type { EarlyCompactionRisk } from '../core/compression/workingBudget/earlyCompactionRisk.js';
import { CACHE_RULES, type CacheProviderName } from '../cache/index.js';
import type { HistoryService } from '../services/history/HistoryService.js';
import type { IContent } from '../services/history/IContent.js';
import type {
  CompressionStrategyName,
  DensityConfig,
  DensityResult,
} from '../core/compression/types.js';
import { CacheAnchorTracker } from './CacheAnchorTracker.js';
import { DensityCacheLedger, type DensityCacheTotals } from './densityCacheLedger.js';
import { historyCacheRead, type LastSend } from './densityInvalidation.js';
import {
  densityPressure,
  type DensityPressure,
  type DensityPressureInput,
} from './densityPressure.js';
import {
  runDensityStep,
  type DensityAppliedEvent,
  type DensityStepOutcome,
} from './densityStep.js';
import { GrowthTracker } from './growthTracker.js';

export interface DensitySchedulerOptions {
  readonly history: HistoryService;
  readonly now: () => number;
  /**
   * The allowance of the risk budget (a fraction of what the session would have cost without
   * density): a batch applied for paying back may cost up front at most what density saved so far
   * plus this much, the allowance only once the batch has waited a step (`betBudget`). Absent:
   * batches are not capped.
   */
  readonly riskAllowance?: () => number;
}

/** The batched schedule's settings for one step. */
export interface BatchedStep {
  readonly rules: CacheRules;
  /** The payback horizon: a batch is applied for paying back within this many calls. */
  readonly paybackCalls: number;
  readonly pressure: DensityPressure;
}

export interface DensitySchedulerStep {
  readonly strategy: CompressionStrategyName;
  readonly optimize: (history: readonly IContent[], config: DensityConfig) => DensityResult;
  readonly config: DensityConfig;
  /** Absent (`schedule=immediate`): every non-empty result is applied. */
  readonly batched?: BatchedStep;
}

/** What `ContextStats` and reports read of the ledger. */
export interface DensityLedgerView {
  totals(): DensityCacheTotals;
  savedSoFar(provider: CacheProviderName): number;
  baselineSoFar(provider: CacheProviderName): number;
}

export class DensityScheduler {
  private lastSend: LastSend | undefined;
  private readonly anchors = new CacheAnchorTracker();
  private readonly growth = new GrowthTracker();
  private readonly cache = new DensityCacheLedger();
  private keptPending: Promise<void> = Promise.resolve();
  /** Whether edits were left waiting by the previous step. */
  private pendingBefore = false;

  constructor(private readonly options: DensitySchedulerOptions) {}

  /** What density's edits did to the prompt cache so far, and the risk budget's inputs. */
  get ledger(): DensityLedgerView {
    return this.cache;
  }

  /**
   * What a batch applied for paying back may cost up front: what density saved so far plus
   * `allowance` × what the session would have cost without it — the allowance only for edits that
   * were already waiting at the previous step. A batch that has just appeared (typically the stale
   * read an edit made, and an agent's turn, or the whole session, often ends right after its last
   * edit) is bet only with what density has earned: should the session end at the next call, it
   * costs no more than without density. One call later the session has shown it
   * goes on, and the allowance is open to the batch.
   */
  betBudget(provider: CacheProviderName, allowance: number): number {
    const earned = this.cache.savedSoFar(provider);
    return this.pendingBefore ? this.cache.riskBudget(provider, allowance) : earned;
  }

  /** The risk budget and cache prices an early working-budget compaction is weighed against. */
  earlyCompactionRisk(rules: CacheRules, allowance: number): EarlyCompactionRisk {
    return {
      riskTokens: () => this.betBudget(rules.provider, allowance),
      readMultiplier: rules.readMultiplier,
      writeMultiplier: rules.writeMultiplier,
    };
  }

  /** One density step: optimize, decide, apply; anchors and the ledger follow what it did. */
  async step(input: DensitySchedulerStep): Promise<DensityStepOutcome> {
    const { history } = this.options;
    const batched = input.batched;
    const allowance = batched === undefined ? undefined : this.options.riskAllowance?.();
    const outcome = await runDensityStep({
      strategy: input.strategy,
      optimize: input.optimize,
      history,
      config: input.config,
      ...(batched === undefined
        ? {}
        : {
            schedule: {
              rules: batched.rules,
              paybackCalls: batched.paybackCalls,
              ...(allowance === undefined
                ? {}
                : { riskBudget: this.betBudget(batched.rules.provider, allowance) }),
              lastSend: this.lastSend,
              now: this.options.now(),
              underPressure: batched.pressure.underPressure ?? true,
              ...pressureFields(batched.pressure),
            },
          }),
    });
    // Edits still waiting after this step are old at the next one (`betBudget`).
    this.pendingBefore =
      outcome.kind === 'deferred' ||
      (outcome.kind === 'applied' && outcome.pendingFrom !== undefined);
    if (outcome.kind === 'deferred') {
      this.anchors.onPending(outcome.event.firstEditedIndex);
      return outcome;
    }
    this.anchors.onPending(outcome.kind === 'applied' ? outcome.pendingFrom : undefined);
    if (outcome.kind === 'applied') {
      this.anchors.onEdited(outcome.event.firstEditedIndex);
      this.recordApplied(outcome.event);
    }
    return outcome;
  }

  /** Under pressure: the room a batch must make and the compression it is priced against. */
  pressure(input: Omit<DensityPressureInput, 'growthPerCall'>): DensityPressure {
    const growthPerCall = this.growth.perCall();
    return {
      ...densityPressure({ ...input, growthPerCall }),
      outlook: { tokens: input.tokens, thresholdTokens: input.thresholdTokens, growthPerCall },
    };
  }

  /** The request about to be sent carries `entries` history entries: choose its anchors. */
  onSend(entries: number): void {
    this.lastSend = { entries, at: this.options.now(), anchors: this.anchors.onSend(entries) };
    this.growth.onSend(this.options.history.getTotalTokens());
  }

  /** The history was replaced or cut (compression, emergency room): nothing of it is pending. */
  onRewritten(): void {
    this.anchors.onRewritten();
  }

  /** A compression was applied: what density removed before it no longer changes a prompt. */
  onCompressed(): void {
    this.cache.compressed();
  }

  /** A model call was made at `atMs` (ms since the epoch): prices density's cache effect. */
  onModelCall(atMs: number | undefined): void {
    this.cache.modelCall(atMs, this.options.history.getTotalTokens());
  }

  /** A reply kept content out of the history at entry; `saved` resolves to its tokens. */
  keptOut(saved: Promise<number>): void {
    this.keptPending = this.keptPending
      .then(() => saved)
      .then(
        (tokens) => this.cache.keptOut(tokens),
        () => undefined,
      );
  }

  /** The entries after which the next request puts an extra cache breakpoint (as sent). */
  cacheAnchorEntries(): readonly IContent[] {
    const raw = this.options.history.getRawHistory();
    return (this.lastSend?.anchors ?? []).flatMap((a) => (raw[a - 1] ? [raw[a - 1]!] : []));
  }

  /** Prices an applied edit into the ledger (`step` does this for the edits it applies). */
  recordApplied(event: DensityAppliedEvent): void {
    const { suffix, explicitLoss } = this.lossOf(event);
    // The schedule's own figure when it priced the edit under explicit caching; otherwise the
    // prefix model's, from the history as edited.
    const removed = event.tokensBefore - event.tokensAfter;
    const priced = event.explicitInvalidatedTokens;
    const explicit = priced === undefined ? explicitLoss : Math.max(0, priced - removed);
    this.cache.edit(removed, suffix, explicit);
  }

  /**
   * History tokens from the edit's first edited entry on (those before are unchanged), and what
   * explicit caching re-sends uncached: the prompt less what `cachePrefix` still reads.
   */
  private lossOf(event: DensityAppliedEvent): { suffix: number; explicitLoss: number } {
    const { history } = this.options;
    const raw = history.getRawHistory();
    let prefix = 0;
    raw.forEach((entry, i) => {
      if (i < event.firstEditedIndex) prefix += history.tokensOf(entry) ?? 0;
    });
    const read = historyCacheRead(
      history,
      { entries: raw.length, anchors: [] },
      CACHE_RULES.anthropic,
    )(event.firstEditedIndex);
    return {
      suffix: Math.max(0, event.tokensAfter - prefix),
      explicitLoss: Math.max(0, event.tokensAfter - read),
    };
  }
}

/** Whether a step applied a batch that goes with a compression: compress in the same pre-send step. */
export function plansCompression(outcome: DensityStepOutcome | undefined): boolean {
  return outcome?.kind === 'applied' && outcome.event.schedule?.reason === 'with-compression';
}

function pressureFields(pressure: DensityPressure): Omit<DensityPressure, 'underPressure'> {
  return {
    ...(pressure.pressureRoom === undefined ? {} : { pressureRoom: pressure.pressureRoom }),
    ...(pressure.compression === undefined ? {} : { compression: pressure.compression }),
    ...(pressure.outlook === undefined ? {} : { outlook: pressure.outlook }),
  };
}
