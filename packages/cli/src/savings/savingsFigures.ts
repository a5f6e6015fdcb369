/**
 * The figures `dense savings` reports, per session and summed per source and in total: cost
 * without and with Dense in dollars, the client's compactions Dense avoided and the waiting they
 * cost, and what stayed visible to the model (grounding and the user's words). Pure.
 */
import type { ReplaySessionReport } from '@dense/core';
import type { SessionReplays } from './replaySavings.js';
import { SAVINGS_SOURCES, type SavingsSource } from './transcriptSources.js';

/**
 * A client compaction whose wait the transcript does not record is counted at this: the middle
 * of the 56–95 s measured from the last record before a boundary to the boundary
 * (docs/clients.md), as the proxy bench counts it.
 */
export const UNTIMED_COMPACTION_WAIT_MS = 75_000;

/** Uses judged and how many were visible (grounding), or messages and how many were kept. */
export interface Kept {
  readonly judged: number;
  readonly visible: number;
  /** Grounding only: not visible, but named by a recall id in what was sent. */
  readonly recallable: number;
}

export interface SavingsFigures {
  readonly sessions: number;
  readonly costWithoutUsd: number;
  readonly costWithUsd: number;
  /** The client's own compactions (recorded), each one the user waited on. */
  readonly clientCompactions: number;
  /** Of those, how many the transcripts do not time (counted at `UNTIMED_COMPACTION_WAIT_MS`). */
  readonly untimedCompactions: number;
  /** Dense's compactions (to the working budget): deterministic, no model call. */
  readonly denseCompactions: number;
  /** The client's compactions' wait (ms), recorded or estimated. */
  readonly waitWithoutMs: number;
  /** Dense's compactions' wait (ms), measured. */
  readonly waitWithMs: number;
  readonly inputTokensWithout: number;
  readonly inputTokensWith: number;
  /** Specifics the agent used next, visible in what was sent (without / with Dense). */
  readonly groundingWithout: Kept;
  readonly groundingWith: Kept;
  /** The user's earlier messages at each call, verbatim or cut (without / with Dense). */
  readonly wordsWithout: Kept;
  readonly wordsWith: Kept;
}

const usd = (report: ReplaySessionReport, session: SessionReplays): number =>
  (report.cacheCost[session.price.cacheRules].weightedTokens * session.price.inputUsdPerMTok) /
  1_000_000;

const grounding = (report: ReplaySessionReport): Kept => ({
  judged: report.grounding?.specifics ?? 0,
  visible: report.grounding?.visible ?? 0,
  recallable: report.grounding?.recallable ?? 0,
});

const words = (report: ReplaySessionReport): Kept => ({
  judged: report.intent?.messages ?? 0,
  visible: (report.intent?.verbatim ?? 0) + (report.intent?.cut ?? 0),
  recallable: 0,
});

/** One session's figures. */
export function sessionFigures(session: SessionReplays): SavingsFigures {
  const without = session.without.report;
  const dense = session.with.report;
  const perCompaction = without.timeBlocked?.perCompactionMs ?? [];
  const untimed = perCompaction.filter((ms) => ms === null).length;
  return {
    sessions: 1,
    costWithoutUsd: usd(without, session),
    costWithUsd: usd(dense, session),
    clientCompactions: without.compressions,
    untimedCompactions: untimed,
    denseCompactions: dense.compressions,
    waitWithoutMs: (without.timeBlocked?.totalMs ?? 0) + untimed * UNTIMED_COMPACTION_WAIT_MS,
    waitWithMs: dense.timeBlocked?.totalMs ?? 0,
    inputTokensWithout: without.cumulativeInputTokens,
    inputTokensWith: dense.cumulativeInputTokens,
    groundingWithout: grounding(without),
    groundingWith: grounding(dense),
    wordsWithout: words(without),
    wordsWith: words(dense),
  };
}

const addKept = (a: Kept, b: Kept): Kept => ({
  judged: a.judged + b.judged,
  visible: a.visible + b.visible,
  recallable: a.recallable + b.recallable,
});

export const ZERO_FIGURES: SavingsFigures = {
  sessions: 0,
  costWithoutUsd: 0,
  costWithUsd: 0,
  clientCompactions: 0,
  untimedCompactions: 0,
  denseCompactions: 0,
  waitWithoutMs: 0,
  waitWithMs: 0,
  inputTokensWithout: 0,
  inputTokensWith: 0,
  groundingWithout: { judged: 0, visible: 0, recallable: 0 },
  groundingWith: { judged: 0, visible: 0, recallable: 0 },
  wordsWithout: { judged: 0, visible: 0, recallable: 0 },
  wordsWith: { judged: 0, visible: 0, recallable: 0 },
};

export function addFigures(a: SavingsFigures, b: SavingsFigures): SavingsFigures {
  return {
    sessions: a.sessions + b.sessions,
    costWithoutUsd: a.costWithoutUsd + b.costWithoutUsd,
    costWithUsd: a.costWithUsd + b.costWithUsd,
    clientCompactions: a.clientCompactions + b.clientCompactions,
    untimedCompactions: a.untimedCompactions + b.untimedCompactions,
    denseCompactions: a.denseCompactions + b.denseCompactions,
    waitWithoutMs: a.waitWithoutMs + b.waitWithoutMs,
    waitWithMs: a.waitWithMs + b.waitWithMs,
    inputTokensWithout: a.inputTokensWithout + b.inputTokensWithout,
    inputTokensWith: a.inputTokensWith + b.inputTokensWith,
    groundingWithout: addKept(a.groundingWithout, b.groundingWithout),
    groundingWith: addKept(a.groundingWith, b.groundingWith),
    wordsWithout: addKept(a.wordsWithout, b.wordsWithout),
    wordsWith: addKept(a.wordsWith, b.wordsWith),
  };
}

/** Per source that has sessions (in `SAVINGS_SOURCES` order), and the total. */
export interface SavingsSummary {
  readonly bySource: readonly {
    readonly source: SavingsSource;
    readonly figures: SavingsFigures;
  }[];
  readonly total: SavingsFigures;
}

export function summarizeSavings(sessions: readonly SessionReplays[]): SavingsSummary {
  const bySource = SAVINGS_SOURCES.map((source) => ({
    source,
    figures: sessions
      .filter((session) => session.source === source)
      .map(sessionFigures)
      .reduce(addFigures, ZERO_FIGURES),
  })).filter((entry) => entry.figures.sessions > 0);
  return {
    bySource,
    total: bySource.map((entry) => entry.figures).reduce(addFigures, ZERO_FIGURES),
  };
}
