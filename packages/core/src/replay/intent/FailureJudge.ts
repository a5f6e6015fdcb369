/**
 * Whether the latest failure the agent had seen before a model call (`planFailures`) was visible
 * in what was sent to it: its result entry sent unchanged, or its signature somewhere in the sent
 * entries. Calls before any failure are not judged.
 */
import type { IContent } from '../../services/history/IContent.js';
import type { RecordedFailure } from './planFailures.js';
import { latestBefore, TextSightings } from './TextSightings.js';

export class FailureJudge {
  private readonly sightings = new TextSightings();

  constructor(private readonly failures: readonly RecordedFailure[]) {}

  /** Undefined when not judged; else whether the latest failure was visible. */
  judge(
    sent: readonly IContent[],
    present: ReadonlySet<IContent>,
    position: number,
  ): boolean | undefined {
    const failure = latestBefore(this.failures, position);
    if (failure === undefined) return undefined;
    return present.has(failure.entry) || this.sightings.visible(failure.signature, sent, present);
  }
}
