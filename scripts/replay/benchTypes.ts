/** The messages between the replay bench and its worker processes, and what one run yields. */
import type {
  ClassificationDisagreement,
  ReplayPolicyId,
  ReplaySessionReport,
  UsageComparison,
} from '@dense/core';

/** The context limits the bench runs (the `none` policy ignores them and runs once). */
export const BENCH_LIMITS = [128_000, 32_000] as const;

export interface BenchJob {
  readonly kind: 'job';
  readonly file: string;
  readonly source: string;
}

export interface LiveLoss {
  readonly category: string;
  readonly filePath: string;
  readonly tokens: number;
  readonly cause: 'density' | 'compression';
  /** The context still names its recall id. */
  readonly recallable?: boolean;
}

export interface StaleLeft {
  readonly filePath: string;
  readonly tokens: number;
  readonly fate: 'in-context' | 'lost-live' | 'lost-duplicate';
}

export interface BenchRun {
  readonly source: string;
  readonly policy: ReplayPolicyId;
  /** `null` for `none` (no limit). */
  readonly limit: number | null;
  readonly report: ReplaySessionReport;
  readonly series: readonly number[];
  /** [history tokens, ms for optimize + apply, ms for optimize alone] per pre-send density step. */
  readonly overhead: readonly (readonly [number, number, number])[];
  readonly liveLosses: readonly LiveLoss[];
  /** Stale dedicated-tool reads the policy did not remove while stale. */
  readonly staleReadsLeft: readonly StaleLeft[];
  readonly wallMs: number;
  /** Compactions the recorded agent made itself (`recorded` follows them; the rest cross them). */
  readonly recordedCompactions: number;
  /**
   * `none` and `recorded` on a self-compacted session whose transcript records usage: the replayed
   * context sizes against the recorded ones, predicted on every call (`all`) and on the calls after
   * the first compaction (`after`).
   */
  readonly recordedUsage?: { readonly all: UsageComparison; readonly after: UsageComparison };
}

/** Where the oracle and the strategies' classifiers disagree in one session. */
export interface SessionCrossCheck {
  readonly source: string;
  readonly session: string;
  readonly disagreements: readonly ClassificationDisagreement[];
}

export type WorkerMessage =
  | { readonly kind: 'ready' }
  | {
      readonly kind: 'result';
      readonly file: string;
      readonly runs: readonly BenchRun[];
      readonly crossChecks: readonly SessionCrossCheck[];
      /** Client compaction-call sessions of the file, left out (benchSessions.ts). */
      readonly compactionCalls: number;
    }
  | { readonly kind: 'failed'; readonly file: string; readonly error: string };

export type MainMessage = BenchJob | { readonly kind: 'stop' };
