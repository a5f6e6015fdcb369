/**
 * Grounding for one side of the proxy bench: at each model call, the specifics the recorded reply
 * went on to use (the replay's grounding oracle, planned once from the session) judged against the
 * request that side actually sent upstream — visible there, recallable (named there by a recall id
 * the side's archive keeps, with text showing it), or hidden. Only the calls whose reply used
 * something are projected, and no request is kept after its call, so memory stays that of one
 * request. The pass-through side has no archive: nothing it sends is recallable.
 */
import type { IContent } from '@dense/core';
import { recordingPosition } from '../../packages/core/src/replay/oracle/exposureLedger.js';
import {
  GroundingOracle,
  type GroundingTotals,
  type RecallTextSource,
} from '../../packages/core/src/replay/grounding/GroundingOracle.js';
import { planGrounding } from '../../packages/core/src/replay/grounding/planGrounding.js';
import type { ClientApi } from './clientRequests.js';
import { sentEntries } from './sentEntries.js';

export interface SideGroundingReport extends GroundingTotals {
  /** Distinct recall ids the agent would have had to fetch to see every recallable use. */
  readonly recallCallsNeeded: number;
  /** Those ids, in the order they were first needed. */
  readonly recallIds: readonly string[];
}

/**
 * The recording position a bench request stands for: the request sent for the recorded reply at
 * entry `index` is that model call, before anything of its reply. The oracles judge what came
 * before this position.
 */
export function callPosition(index: number): number {
  return recordingPosition(index, 0);
}

/** The recorded entry a recording position lies in (the inverse of `callPosition`). */
export function entryAt(position: number): number {
  return Math.floor(position / recordingPosition(1, 0));
}

export class SideGrounding {
  private readonly oracle: GroundingOracle;

  constructor(
    contents: readonly IContent[],
    private readonly api: ClientApi,
    recall?: RecallTextSource,
  ) {
    this.oracle = new GroundingOracle(planGrounding(contents), recall);
  }

  /** The request `body` this side sent upstream was answered by the recorded reply at `index`. */
  onCall(body: unknown, index: number): void {
    const position = callPosition(index);
    if (!this.oracle.hasUsesAt(position)) return;
    this.oracle.onModelCall(sentEntries(body, this.api), position);
  }

  report(): SideGroundingReport {
    const recallIds = this.oracle.recallIdsNeeded();
    return { ...this.oracle.totals(), recallCallsNeeded: recallIds.length, recallIds };
  }
}
