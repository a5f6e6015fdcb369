/**
 * A conversation's stale results' pointer verdicts (`PointerVerdict`), by recall id: kept in its
 * shared state so a replica that did not weigh a result's pointer does not count its tokens again.
 * Bounded: past `MAX_VERDICTS` the oldest go (a verdict missing is only counted again).
 */
import type { PointerVerdict } from './proxyPointer.js';
import { setNewest } from '../../utils/newestFirst.js';

export const MAX_VERDICTS = 4096;

export class PointerVerdicts {
  private readonly verdicts: Map<string, PointerVerdict>;

  constructor(entries: Iterable<readonly [string, PointerVerdict]> = []) {
    this.verdicts = new Map();
    for (const [recallId, verdict] of entries) this.set(recallId, verdict);
  }

  get known(): ReadonlyMap<string, PointerVerdict> {
    return this.verdicts;
  }

  set(recallId: string, verdict: PointerVerdict): void {
    if (this.verdicts.get(recallId) === verdict) return;
    setNewest(this.verdicts, recallId, verdict, MAX_VERDICTS);
  }

  /** As stored in the snapshot: one `recallId:verdict` string each, oldest first. */
  entries(): readonly string[] {
    return [...this.verdicts].map(([recallId, verdict]) => `${recallId}:${verdict}`);
  }

  /** From `entries()`; an entry not of that shape is skipped (a verdict is only counted again). */
  static restore(entries: readonly string[] | undefined): PointerVerdicts {
    const parsed: [string, PointerVerdict][] = [];
    for (const entry of entries ?? []) {
      const at = entry.lastIndexOf(':');
      const verdict = entry.slice(at + 1);
      if (at > 0 && (verdict === 'f' || verdict === 'b' || verdict === 'n'))
        parsed.push([entry.slice(0, at), verdict]);
    }
    return new PointerVerdicts(parsed);
  }
}
