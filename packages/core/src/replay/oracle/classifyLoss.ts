/**
 * The oracle's verdict on an exposure a policy removed or replaced, at the moment it did so:
 * `stale` once a later successful write of the same file has happened, `duplicate` when a newer
 * exposure of the same, unchanged file that covers it is still in context, else `live` (content
 * the model could still need was lost). Pure.
 */
import type { Exposure, ExposureLedger } from './exposureLedger.js';

export const LOSS_VERDICTS = ['stale', 'duplicate', 'live'] as const;
export type LossVerdict = (typeof LOSS_VERDICTS)[number];

/** The ledger indexed by file, for verdicts in O(exposures and writes of that file). */
export interface LedgerIndex {
  readonly ledger: ExposureLedger;
  readonly writesByPath: ReadonlyMap<string, readonly number[]>;
  readonly exposuresByPath: ReadonlyMap<string, readonly Exposure[]>;
}

export function indexLedger(ledger: ExposureLedger): LedgerIndex {
  const writesByPath = new Map<string, number[]>();
  for (const write of ledger.writes) {
    const list = writesByPath.get(write.pathKey);
    if (list) list.push(write.position);
    else writesByPath.set(write.pathKey, [write.position]);
  }
  const exposuresByPath = new Map<string, Exposure[]>();
  for (const exposure of ledger.exposures) {
    const list = exposuresByPath.get(exposure.pathKey);
    if (list) list.push(exposure);
    else exposuresByPath.set(exposure.pathKey, [exposure]);
  }
  return { ledger, writesByPath, exposuresByPath };
}

/** Whether a successful write of the exposure's file happened after it and by `now`. */
export function isStaleAt(index: LedgerIndex, exposure: Exposure, now: number): boolean {
  const writes = index.writesByPath.get(exposure.pathKey) ?? [];
  return writes.some((position) => position > exposure.position && position <= now);
}

/** Later in the recording; two copies in one text are ordered by their place in it. */
function isNewer(candidate: Exposure, exposure: Exposure): boolean {
  return (
    candidate.position > exposure.position ||
    (candidate.position === exposure.position && candidate.id > exposure.id)
  );
}

/** A newer exposure shows everything the older one did: the whole file, or the same text. */
function covers(newer: Exposure, older: Exposure): boolean {
  return !newer.partial || newer.text === older.text;
}

/**
 * The verdict for `exposure`, removed at recording position `now`; `isPresent` says whether
 * another exposure is still in context after the edit that removed this one.
 */
export function classifyLoss(
  index: LedgerIndex,
  exposure: Exposure,
  now: number,
  isPresent: (exposureId: number) => boolean,
): LossVerdict {
  if (isStaleAt(index, exposure, now)) return 'stale';
  const sameFile = index.exposuresByPath.get(exposure.pathKey) ?? [];
  const superseded = sameFile.some(
    (newer) =>
      isNewer(newer, exposure) &&
      newer.position <= now &&
      isPresent(newer.id) &&
      covers(newer, exposure),
  );
  return superseded ? 'duplicate' : 'live';
}
