/**
 * The intent oracle for one side of the proxy bench: at each model call, every message the user
 * typed before it (the replay's `planIntent`) judged by the replay's `IntentOracle` against the
 * request that side actually sent upstream (`sentEntries`) — visible verbatim, cut (a long paste
 * shown as head and tail) or lost. The client's own compaction summary is judged like any other
 * message it sends: a summary that paraphrases the user loses their words. The same oracle judges
 * whether the client's current task list and the latest failure were visible in each request.
 *
 * The oracle remembers where it last saw each message by entry identity; a message sent again
 * unchanged is given the entry object of the call before, so it is not searched for again. Only
 * the previous call's entries are kept.
 */
import type { IContent } from '@dense/core';
import {
  IntentOracle,
  ZERO_INTENT,
  type IntentCounts,
} from '../../packages/core/src/replay/intent/IntentOracle.js';
import { planIntent, type UserMessage } from '../../packages/core/src/replay/intent/planIntent.js';
import { planWorkState } from '../../packages/core/src/replay/intent/planWorkState.js';
import { callPosition } from './SideGrounding.js';

export interface SideIntentReport extends IntentCounts {
  /**
   * Of the calls judged, those sent while the side's history started at a synthetic summary (the
   * bench's stand-in where the recording has none: it holds none of the user's words).
   */
  readonly callsOnSyntheticSummary: number;
}

/** What one call was judged: each earlier user message once. */
export type CallIntent = Pick<IntentCounts, 'messages' | 'verbatim' | 'cut' | 'lost'>;

export class SideIntent {
  private readonly oracle: IntentOracle;
  private readonly messages: readonly UserMessage[];
  private previous = new Map<string, IContent>();
  private onSynthetic = 0;

  constructor(contents: readonly IContent[]) {
    this.messages = planIntent(contents);
    this.oracle = new IntentOracle(this.messages, planWorkState(contents));
  }

  /** The user's messages this side is judged on, in order. */
  userMessages(): readonly UserMessage[] {
    return this.messages;
  }

  /**
   * The side sent `entries` (`sentEntries` of its request body) for the recorded reply at
   * `index`; `onSyntheticSummary`: its history started at a synthetic summary. The call's
   * verdicts on the user's messages, or undefined when none came before it (its task list and
   * latest failure are judged all the same).
   */
  onCall(
    entries: readonly IContent[],
    index: number,
    onSyntheticSummary = false,
  ): CallIntent | undefined {
    const position = callPosition(index);
    const stable = this.stable(entries);
    const before = this.oracle.totals();
    this.oracle.onModelCall(stable, position);
    const after = this.oracle.totals();
    if (after.calls === before.calls) return undefined;
    if (onSyntheticSummary) this.onSynthetic++;
    return {
      messages: after.messages - before.messages,
      verbatim: after.verbatim - before.verbatim,
      cut: after.cut - before.cut,
      lost: after.lost - before.lost,
    };
  }

  report(): SideIntentReport {
    return { ...this.oracle.totals(), callsOnSyntheticSummary: this.onSynthetic };
  }

  /** `entries` with each one sent unchanged since the previous call as that call's object. */
  private stable(entries: readonly IContent[]): IContent[] {
    const next = new Map<string, IContent>();
    const result = entries.map((entry) => {
      const key = JSON.stringify(entry);
      const same = this.previous.get(key) ?? next.get(key) ?? entry;
      next.set(key, same);
      return same;
    });
    this.previous = next;
    return result;
  }
}

/** No call judged. */
export const ZERO_SIDE_INTENT: SideIntentReport = { ...ZERO_INTENT, callsOnSyntheticSummary: 0 };
