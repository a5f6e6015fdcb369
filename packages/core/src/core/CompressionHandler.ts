/**
 * Keeps the history within the context window before each model call: density optimization,
 * then the threshold check, then compression, then the hard-limit (emergency) check.
 *
 * Contract: `ensureCompressionBeforeSend()` is called by the turn loop before every provider call,
 * in the sequential window where nothing else adds to the history (REQ-HD-002.10). It may replace
 * or edit the history; it never swallows an error from optimize, apply, token counting or the
 * strategy (REQ-HD-013). The turn loop calls `markDirty()` whenever it records an entry.
 */
import { errorMessage } from '../utils/errors.js';
import { nullLogger, type DebugLogger } from '../utils/logger.js';
import { TypedEmitter } from '../utils/TypedEmitter.js';
import type { IContent } from '../services/history/IContent.js';
import type { SettingsReader } from '../settings/SettingsReader.js';
import {
  getCompressionStrategy,
  parseCompressionStrategyName,
} from './compression/compressionStrategyFactory.js';
import {
  type CompressionContext,
  type CompressionResult,
  type CompressionStrategy,
  type CompressionWhy,
  type CompressionStrategyName,
  type DensityConfig,
} from './compression/types.js';
import { densityConfigFrom } from './compression/densityConfigFrom.js';
import {
  compressionSettingsFrom,
  type CompressionSettings,
} from './compression/CompressionSettings.js';
import { compressionContextFor } from './compressionContextFor.js';
import { HardLimit } from './HardLimit.js';
import { escalateAtHardLimit } from './escalateAtHardLimit.js';
import { toolOutputCapTokens } from './capToolOutput.js';
import { CompactionLoopGuard } from './CompactionLoopGuard.js';
import { ArtifactTrailKeeper } from './compression/artifactTrail/ArtifactTrailKeeper.js';
import { settledCompression } from './compression/settledCompression.js';
import { cacheRulesForProvider } from '../cache/cacheRules.js';
import type { DensityPressure } from '../scheduler/densityPressure.js';
import { DensityScheduler, plansCompression } from '../scheduler/DensityScheduler.js';
import type { DensityStepOutcome } from '../scheduler/densityStep.js';
import type { EarlyCompactionRisk } from './compression/workingBudget/earlyCompactionRisk.js';

import type {
  CompressionEvent,
  CompressionHandlerEvents,
  CompressionHandlerOptions,
} from './CompressionHandlerOptions.js';

export type {
  CompressionEvent,
  CompressionHandlerEvents,
  CompressionHandlerOptions,
  DensityAppliedEvent,
  DensityDeferredEvent,
  EmergencyRoomEvent,
} from './CompressionHandlerOptions.js';
export { defaultCompletionReserve } from './HardLimit.js';

export class CompressionHandler {
  readonly events = new TypedEmitter<CompressionHandlerEvents>();
  /** The density schedule: pending edits, anchors, growth and the ledger of what density saved. */
  readonly scheduler: DensityScheduler;
  private densityDirty = true;
  private compressionPromise: Promise<CompressionEvent> | undefined;
  private readonly strategies = new Map<CompressionStrategyName, CompressionStrategy>();
  private readonly logger: DebugLogger;
  private readonly loopGuard = new CompactionLoopGuard();
  private readonly trail = new ArtifactTrailKeeper();
  private readonly hardLimit: HardLimit;
  private lastCompressionChangedNothing = false;

  constructor(private readonly options: CompressionHandlerOptions) {
    this.logger = options.logger ?? nullLogger;
    this.scheduler = new DensityScheduler({
      history: options.history,
      now: () => this.now(),
      ...(options.densityRiskAllowance ? { riskAllowance: options.densityRiskAllowance } : {}),
    });
    this.hardLimit = new HardLimit({
      contextLimit: () => options.runtime.contextLimit(),
      historyTokens: () => options.history.getTotalTokens(),
      ...(options.completionReserve ? { completionReserve: options.completionReserve } : {}),
    });
  }

  /** New content entered the history through the turn loop (REQ-HD-002.6). */
  markDirty(): void {
    this.densityDirty = true;
  }

  isDensityDirty(): boolean {
    return this.densityDirty;
  }

  /** The strategy the settings select now (one instance per name, so strategy caches survive). */
  currentStrategy(): CompressionStrategy {
    const name = parseCompressionStrategyName(this.settings.get('compression.strategy'));
    let strategy = this.strategies.get(name);
    if (!strategy) {
      strategy = (this.options.resolveStrategy ?? getCompressionStrategy)(name);
      this.strategies.set(name, strategy);
    }
    return strategy;
  }

  /** Setting (session, then profile), else the strategy's own default (REQ-HD-001.10). */
  compressionThreshold(strategy: CompressionStrategy = this.currentStrategy()): number {
    return this.settings.get('compression-threshold') ?? strategy.trigger.defaultThreshold;
  }

  /**
   * The pre-send step: settle tokens, optimize density, compress past the threshold, and make sure
   * the history plus `pendingTokens` plus the reply reserve fits the hard limit — escalating past
   * the strategy when it is not enough (`escalateAtHardLimit`) — else throw `ContextOverflowError`
   * (the pending message is not in the history, so nothing is lost).
   */
  async ensureCompressionBeforeSend(promptId: string, pendingTokens = 0): Promise<void> {
    if (this.compressionPromise) await this.compressionPromise.catch(() => undefined);
    await this.options.history.waitForTokenUpdates();
    // A message that cannot fit even in an empty history is refused before anything irreversible.
    this.hardLimit.refuseIfNeverFits(pendingTokens);
    const density = await this.ensureDensityOptimized({
      underPressure: this.shouldCompress(pendingTokens),
      // Over the hard limit already: correctness first, every pending edit goes.
      ...(this.hardLimit.exceeds(pendingTokens) ? {} : this.pressureInputs(pendingTokens)),
    });
    let compressed = false;
    const planned = plansCompression(density);
    const due = planned || this.shouldCompress(pendingTokens);
    if (due && !this.reportedLoop(pendingTokens)) {
      await this.performCompression(promptId, pendingTokens);
      compressed = true;
    } else if (!due && this.workingBudgetDue(pendingTokens)) {
      await this.performCompression(promptId, pendingTokens, { earlyCompaction: true });
      compressed = true;
    }
    if (this.hardLimit.exceeds(pendingTokens)) {
      // Emergency path (REQ-HD-002.8): density first (a deferred edit is applied now), then
      // compression only if density did not make room, then the strategy-independent escalation,
      // and only then give up.
      await this.ensureDensityOptimized({ underPressure: true });
      if (!compressed && this.hardLimit.exceeds(pendingTokens)) {
        await this.performCompression(promptId, pendingTokens);
      }
      await this.escalateIfOverHardLimit(promptId, pendingTokens);
      if (this.hardLimit.exceeds(pendingTokens)) throw this.hardLimit.overflowError(pendingTokens);
    }
    this.scheduler.onSend(this.options.history.length);
    this.loopGuard.onSend();
  }

  /** Whether compressing now would loop; if so, says so through `compactionLoop`. */
  private reportedLoop(pendingTokens: number): boolean {
    const threshold = Math.floor(this.compressionThreshold() * this.options.runtime.contextLimit());
    const tokens = this.options.history.getTotalTokens() + pendingTokens;
    const loop = this.loopGuard.loopCheck(tokens, threshold);
    if (loop !== undefined) this.events.emit('compactionLoop', loop);
    return loop !== undefined;
  }

  /**
   * The entries after which the request about to be sent puts an extra prompt-cache breakpoint
   * (`CacheAnchorTracker.ts`): the entry just before each anchor, as sent.
   */
  cacheAnchorEntries(): readonly IContent[] {
    return this.scheduler.cacheAnchorEntries();
  }

  /**
   * Under pressure below the hard limit: the room a batch must make, and the compression that
   * could go with it (when the strategy knows what it leaves, and neither the loop guard nor a
   * compression that changed nothing last time stands in its way).
   */
  private pressureInputs(pendingTokens: number): DensityPressure {
    const strategy = this.currentStrategy();
    const settings = this.compressionSettings();
    const tokens = this.options.history.getTotalTokens() + pendingTokens;
    const thresholdTokens = this.compressionThreshold(strategy) * settings.contextLimit;
    const blocked =
      this.lastCompressionChangedNothing ||
      this.loopGuard.loopCheck(tokens, Math.floor(thresholdTokens)) !== undefined;
    const after = blocked ? undefined : strategy.compressedTokensAtMost?.(settings, pendingTokens);
    return this.scheduler.pressure({
      tokens,
      thresholdTokens,
      compressedTokens: after === undefined ? undefined : after + pendingTokens,
    });
  }

  /**
   * Whether the strategy asks for compress() before the threshold: to finish the compaction one
   * call before (once per compaction, so never a loop), or past its working budget's early budget
   * when the loop guard allows it (silently: an early compaction is not a loop warning).
   */
  private workingBudgetDue(pendingTokens: number): boolean {
    const strategy = this.currentStrategy();
    const settings = this.compressionSettings();
    if (strategy.compactionFinishDue?.(settings, this.options.history.getRawHistory())) return true;
    const due = strategy.compactionDueTokens?.(settings);
    if (due === undefined) return false;
    const tokens = this.options.history.getTotalTokens() + pendingTokens;
    return tokens >= due && this.loopGuard.loopCheck(tokens, due) === undefined;
  }

  /** Whether history (after density) plus `pendingTokens` reaches threshold × context limit. */
  shouldCompress(pendingTokens = 0): boolean {
    const limit = this.options.runtime.contextLimit();
    const current = this.options.history.getTotalTokens();
    return current + pendingTokens >= this.compressionThreshold() * limit;
  }

  /**
   * Runs the strategy's optimize() on the raw history when content was added since the last run,
   * applies a non-empty result and waits for the token recalculation (REQ-HD-002.2–002.9). With
   * `compression.density.schedule` `batched` (the default), edits that would cost more in
   * prompt-cache misses than they save wait (the flag stays set) unless the context is
   * `underPressure`; the edits near the end may go alone. Returns the step's outcome (undefined
   * when nothing ran): `plansCompression` of it tells whether a compression goes with the batch.
   */
  async ensureDensityOptimized(
    options: DensityPressure = {},
  ): Promise<DensityStepOutcome | undefined> {
    if (!this.densityDirty) return undefined;
    const strategy = this.currentStrategy();
    if (!strategy.optimize) {
      this.densityDirty = false;
      return undefined;
    }
    const batched = this.densityBatched();
    const outcome = await this.scheduler.step({
      strategy: strategy.name,
      optimize: strategy.optimize.bind(strategy),
      config: this.densityConfig(),
      ...(batched
        ? {
            batched: {
              rules: cacheRulesForProvider(this.options.runtimeState().provider),
              paybackCalls: this.settings.get('compression.density.cachePaybackCalls'),
              pressure: options,
            },
          }
        : {}),
    });
    if (outcome.kind === 'deferred') this.events.emit('densityDeferred', outcome.event);
    if (outcome.kind === 'applied') this.events.emit('densityApplied', outcome.event);
    // Deferred edits, or deeper ones an applied batch left, keep the flag set.
    const waiting =
      outcome.kind === 'deferred' ||
      (outcome.kind === 'applied' && outcome.pendingFrom !== undefined);
    if (!waiting) this.densityDirty = false;
    return outcome;
  }

  /**
   * Compresses now with the active strategy; joins a compression already running. `pendingTokens`:
   * the message about to be added, which the compressed history must leave room for.
   */
  performCompression(
    promptId: string,
    pendingTokens = 0,
    why: CompressionWhy = {},
  ): Promise<CompressionEvent> {
    this.compressionPromise ??= this.runCompression(promptId, pendingTokens, why).finally(() => {
      this.compressionPromise = undefined;
    });
    return this.compressionPromise;
  }

  buildCompressionContext(
    promptId: string,
    pendingTokens = 0,
    why: CompressionWhy = {},
  ): Promise<CompressionContext> {
    return compressionContextFor(this.options, {
      promptId,
      pendingTokens,
      why,
      threshold: this.compressionThreshold(),
      logger: this.logger,
      earlyCompactionRisk: this.earlyCompactionRisk(),
    });
  }

  /** The session's risk budget and cache prices, for an early working-budget compaction. */
  private earlyCompactionRisk(): EarlyCompactionRisk {
    const rules = cacheRulesForProvider(this.options.runtimeState().provider);
    const allowance = this.settings.get('compression.density.cacheRiskAllowance');
    return this.scheduler.earlyCompactionRisk(rules, allowance);
  }

  /** What strategies read of the settings now, as one snapshot. */
  private compressionSettings(): CompressionSettings {
    const { runtime } = this.options;
    return compressionSettingsFrom(runtime.settings, runtime.contextLimit());
  }

  /** Density edits wait for a cheap moment unless `schedule` is `immediate`. */
  private densityBatched(): boolean {
    const { settings } = this;
    return (
      settings.get('compression.density.schedule') === 'batched' ||
      settings.get('compression.density.cacheAware')
    );
  }

  densityConfig(): DensityConfig {
    const { settings, config } = this.options.runtime;
    return densityConfigFrom(settings, config.getWorkspaceRoot());
  }

  private async runCompression(
    promptId: string,
    pendingTokens: number,
    why: CompressionWhy,
  ): Promise<CompressionEvent> {
    const { history } = this.options;
    const strategy = this.currentStrategy();
    const context = await this.buildCompressionContext(promptId, pendingTokens, why);
    const tokensBefore = history.getTotalTokens();
    history.startCompression();
    let result: CompressionResult;
    try {
      result = settledCompression(await strategy.compress(context), {
        trail: this.trail,
        context,
        todos: this.options.todos?.() ?? [],
      });
      this.loopGuard.onCompressed(result);
      // An early compaction the budget declined says nothing of what a due one would do.
      if (result.kind === 'applied' || why.earlyCompaction !== true)
        this.lastCompressionChangedNothing = result.kind !== 'applied';
      if (result.kind === 'applied') {
        history.replaceHistory(result.newHistory);
        this.scheduler.onRewritten();
      }
    } catch (error) {
      this.logger.error('compression failed', {
        strategy: strategy.name,
        error: errorMessage(error),
      });
      throw error;
    } finally {
      history.endCompression();
    }
    await history.waitForTokenUpdates();
    const event: CompressionEvent = {
      strategy: strategy.name,
      result,
      tokensBefore,
      tokensAfter: history.getTotalTokens(),
      promptId,
      at: this.now(),
    };
    if (result.kind === 'applied') this.scheduler.onCompressed();
    this.events.emit('compressed', event);
    return event;
  }

  /**
   * Over the hard limit after compression (a send, or `/compress`): `escalateAtHardLimit`, which
   * says what it did through `emergencyRoom`. Does nothing when the history fits.
   */
  async escalateIfOverHardLimit(promptId: string, pendingTokens = 0): Promise<void> {
    if (!this.hardLimit.exceeds(pendingTokens)) return;
    const { history, runtime } = this.options;
    const room = this.hardLimit.room(pendingTokens);
    const capTokens = toolOutputCapTokens({
      toolOutputCap: runtime.settings.get('compression.toolOutputCap'),
      contextLimit: runtime.contextLimit(),
    });
    // The user's words survive the emergency too, and a short trail: what was tried and failed
    // and the todo list outrank the older entries dropped for them.
    const keep = this.trail.shortTrail({
      todos: this.options.todos?.() ?? [],
      workspaceRoot: runtime.config.getWorkspaceRoot(),
      contextLimit: runtime.contextLimit(),
      trail: runtime.settings.get('compression.artifactTrail'),
    });
    const event = await escalateAtHardLimit({
      history,
      room,
      capTokens,
      pendingTokens,
      promptId,
      keep,
    });
    if (event === undefined) return;
    this.scheduler.onRewritten();
    this.events.emit('emergencyRoom', event);
  }

  private get settings(): SettingsReader {
    return this.options.runtime.settings;
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }
}
