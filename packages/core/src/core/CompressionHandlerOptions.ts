/** What a CompressionHandler is built from and the events it emits, with their payloads. */
import type { DebugLogger } from '../utils/logger.js';
import type { HistoryService } from '../services/history/HistoryService.js';
import type { IProvider } from '../providers/IProvider.js';
import type { PromptResolver } from '../prompt-config/PromptResolver.js';
import type { AgentRuntimeContext, AgentRuntimeState } from '../runtime/AgentRuntimeContext.js';
import type { Todo } from '../tools/todo-schemas.js';
import type {
  CompressionResult,
  CompressionStrategy,
  CompressionStrategyName,
} from './compression/types.js';
import type { EmergencyRoomEvent } from './escalateAtHardLimit.js';
import type { CompactionLoopEvent } from './CompactionLoopGuard.js';
import type { DensityAppliedEvent, DensityDeferredEvent } from '../scheduler/densityStep.js';

/** The events this handler emits carry these payloads. */
export type { DensityAppliedEvent, DensityDeferredEvent } from '../scheduler/densityStep.js';
export type { EmergencyRoomEvent } from './escalateAtHardLimit.js';

export interface CompressionEvent {
  readonly strategy: CompressionStrategyName;
  readonly result: CompressionResult;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly promptId: string;
  readonly at: number;
}

export interface CompressionHandlerEvents {
  densityApplied: DensityAppliedEvent;
  /** The batched schedule left edits for later (they are re-evaluated before the next call). */
  densityDeferred: DensityDeferredEvent;
  compressed: CompressionEvent;
  /** The pre-send check would compress again right after a compression. */
  compactionLoop: CompactionLoopEvent;
  /** Over the hard limit after compression, outputs were cut or old entries dropped. */
  emergencyRoom: EmergencyRoomEvent;
}

export interface CompressionHandlerOptions {
  readonly history: HistoryService;
  readonly runtime: AgentRuntimeContext;
  /** Who the session talks to now (it may change between turns). */
  readonly runtimeState: () => AgentRuntimeState;
  readonly resolveProvider: (profileName?: string) => IProvider;
  readonly promptResolver: PromptResolver;
  readonly promptBaseDir: string;
  readonly activeTodos?: () => readonly Todo[];
  /** The whole todo list, re-injected after every compression. */
  readonly todos?: () => readonly Todo[];
  /** Tokens kept free for the model's reply in the hard-limit check. */
  readonly completionReserve?: () => number;
  readonly resolveStrategy?: (name: CompressionStrategyName) => CompressionStrategy;
  readonly logger?: DebugLogger;
  readonly now?: () => number;
  /**
   * The risk budget's allowance (`DensityScheduler`): a batch may cost up front what density has
   * saved this session so far plus this fraction of what it would have cost without density.
   * Without it batches are not capped.
   */
  readonly densityRiskAllowance?: () => number;
}
