/** Grounding totals over several sessions: counts summed per kind; examples left out. Pure. */
import { SPECIFIC_KINDS, type SpecificKind } from './extractSpecifics.js';
import { ZERO_GROUNDING, type GroundingCounts, type GroundingTotals } from './GroundingOracle.js';

function add(a: GroundingCounts, b: GroundingCounts): GroundingCounts {
  return {
    specifics: a.specifics + b.specifics,
    visible: a.visible + b.visible,
    recallable: a.recallable + b.recallable,
    hidden: a.hidden + b.hidden,
  };
}

/** Sessions without grounding figures count as zero. */
export function sumGrounding(all: readonly (GroundingTotals | undefined)[]): GroundingTotals {
  const byKind = Object.fromEntries(SPECIFIC_KINDS.map((kind) => [kind, ZERO_GROUNDING])) as Record<
    SpecificKind,
    GroundingCounts
  >;
  let counts = ZERO_GROUNDING;
  for (const totals of all) {
    if (totals === undefined) continue;
    counts = add(counts, totals);
    for (const kind of SPECIFIC_KINDS) byKind[kind] = add(byKind[kind], totals.byKind[kind]);
  }
  return { ...counts, byKind, examples: [] };
}

/** Visible over all uses; `null` when nothing was used. */
export function groundingRate(counts: GroundingCounts): number | null {
  return counts.specifics === 0 ? null : counts.visible / counts.specifics;
}
