/**
 * Work redone after a compaction, per policy: a recorded tool call that fetches again what an
 * earlier call fetched (`findReacquisitions`) with a compaction boundary in between — one the
 * recorded agent made (a summary entry of the recording) or one the policy made. At the model call
 * that made it, the counter looks at what the policy sent: if an earlier copy was still there
 * unchanged, the policy kept it and the re-fetch is waste the agent's own compaction caused;
 * otherwise the policy had lost it too, and the call is work redone.
 */
import type { IContent } from '../../services/history/IContent.js';
import { recordingPosition } from '../oracle/exposureLedger.js';
import { findReacquisitions, type Reacquisition } from './findReacquisitions.js';
import { blockText } from './groundingText.js';

export interface WorkRedoneCounts {
  /** Re-acquisitions with a compaction boundary between them and the earlier copy. */
  readonly reacquired: number;
  /** Of those, the policy no longer sent an earlier copy: the call is work redone. */
  readonly redone: number;
  /** Of those, the policy still sent an earlier copy unchanged (waste of the agent's compaction). */
  readonly keptInContext: number;
}

export const ZERO_WORK_REDONE: WorkRedoneCounts = { reacquired: 0, redone: 0, keptInContext: 0 };

/** Recording positions of the recorded agent's own compactions (summary entries after content). */
export function recordedBoundaries(contents: readonly IContent[]): number[] {
  const boundaries: number[] = [];
  let seenContent = false;
  contents.forEach((entry, index) => {
    if (entry.metadata?.isSummary !== true) seenContent = true;
    else if (seenContent) boundaries.push(recordingPosition(index, 0));
  });
  return boundaries;
}

/** Sums over sessions; a session without the figures counts as zero. */
export function sumWorkRedone(all: readonly (WorkRedoneCounts | undefined)[]): WorkRedoneCounts {
  return all.reduce<WorkRedoneCounts>(
    (sum, c) => ({
      reacquired: sum.reacquired + (c?.reacquired ?? 0),
      redone: sum.redone + (c?.redone ?? 0),
      keptInContext: sum.keptInContext + (c?.keptInContext ?? 0),
    }),
    ZERO_WORK_REDONE,
  );
}

export class WorkRedoneCounter {
  private readonly byReply = new Map<number, Reacquisition[]>();
  private readonly boundaries: number[];
  private compactedSinceCall = false;
  private counts: WorkRedoneCounts = ZERO_WORK_REDONE;

  constructor(reacquisitions: readonly Reacquisition[], recorded: readonly number[]) {
    for (const item of reacquisitions) {
      const list = this.byReply.get(item.replyPosition);
      if (list) list.push(item);
      else this.byReply.set(item.replyPosition, [item]);
    }
    this.boundaries = [...recorded];
  }

  /** The policy compacted its history; the boundary falls before the next model call. */
  compacted(): void {
    this.compactedSinceCall = true;
  }

  /** The reply at recording `position` answers a request made of `sent`. */
  onModelCall(sent: readonly IContent[], position: number): void {
    if (this.compactedSinceCall) {
      this.boundaries.push(position);
      this.compactedSinceCall = false;
    }
    const items = this.byReply.get(position);
    if (items === undefined) return;
    for (const item of items) {
      const latest = item.earlier.at(-1)?.position ?? position;
      if (!this.boundaries.some((b) => b > latest && b <= position)) continue;
      const kept = this.keptCopy(item, sent);
      this.counts = {
        reacquired: this.counts.reacquired + 1,
        redone: this.counts.redone + (kept ? 0 : 1),
        keptInContext: this.counts.keptInContext + (kept ? 1 : 0),
      };
    }
  }

  totals(): WorkRedoneCounts {
    return this.counts;
  }

  private keptCopy(item: Reacquisition, sent: readonly IContent[]): boolean {
    const wanted = new Map(item.earlier.map((a) => [a.callId, a.text]));
    return sent.some((entry) =>
      entry.blocks.some((block) => {
        if (block.type !== 'tool_response') return false;
        const text = wanted.get(block.callId);
        return text !== undefined && text === blockText(block);
      }),
    );
  }
}

const plans = new WeakMap<
  readonly IContent[],
  { reacquisitions: readonly Reacquisition[]; boundaries: readonly number[] }
>();

/** A counter for one policy's replay of `contents` (the recording's half computed once). */
export function workRedoneCounterFor(contents: readonly IContent[]): WorkRedoneCounter {
  let plan = plans.get(contents);
  if (plan === undefined) {
    plan = {
      reacquisitions: findReacquisitions(contents),
      boundaries: recordedBoundaries(contents),
    };
    plans.set(contents, plan);
  }
  return new WorkRedoneCounter(plan.reacquisitions, plan.boundaries);
}
