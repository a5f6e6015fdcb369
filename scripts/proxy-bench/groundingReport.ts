/**
 * The proxy bench's grounding figures: per session and overall, for the pass-through side (what
 * the client's own compaction left it) and the proxy side (Dense's working budget), the specifics
 * the agent used next that the request of that side showed (visible), named by a recall id the
 * archive keeps (recallable) or neither (hidden), and the recall calls the recallable ones need.
 * Also which sessions the proxy side grounds worse than pass-through. Pure.
 */
import {
  groundingRate,
  sumGrounding,
} from '../../packages/core/src/replay/grounding/sumGrounding.js';
import type { SideGroundingReport } from './SideGrounding.js';

export interface GroundingSides {
  readonly passThrough: SideGroundingReport;
  readonly proxy: SideGroundingReport;
}

export interface GroundingOverall {
  readonly passThrough: SideGroundingReport;
  readonly proxy: SideGroundingReport;
  /** Sessions whose proxy side shows a smaller share of the used specifics than pass-through. */
  readonly belowPassThrough: readonly string[];
}

/** Visible over all uses; 1 when nothing was used (nothing to miss). */
export function visibleRate(report: SideGroundingReport): number {
  return groundingRate(report) ?? 1;
}

/** Visible or recallable over all uses; 1 when nothing was used. */
export function reachableRate(report: SideGroundingReport): number {
  return report.specifics === 0 ? 1 : (report.visible + report.recallable) / report.specifics;
}

function summed(reports: readonly SideGroundingReport[]): SideGroundingReport {
  return {
    ...sumGrounding(reports),
    recallCallsNeeded: reports.reduce((sum, report) => sum + report.recallCallsNeeded, 0),
    recallIds: [],
  };
}

export function groundingOverall(
  rows: readonly { readonly file: string; readonly grounding: GroundingSides }[],
): GroundingOverall {
  return {
    passThrough: summed(rows.map((row) => row.grounding.passThrough)),
    proxy: summed(rows.map((row) => row.grounding.proxy)),
    belowPassThrough: rows
      .filter((row) => visibleRate(row.grounding.proxy) < visibleRate(row.grounding.passThrough))
      .map((row) => row.file),
  };
}

const percent = (rate: number): string => `${(100 * rate).toFixed(1)}%`;

function cells(sides: GroundingSides): string {
  const { passThrough: pass, proxy } = sides;
  return [
    pass.specifics,
    percent(visibleRate(pass)),
    percent(visibleRate(proxy)),
    proxy.recallable,
    percent(reachableRate(proxy)),
    `${pass.hidden} / ${proxy.hidden}`,
    proxy.recallCallsNeeded,
  ].join(' | ');
}

/** The grounding table printed after the cost table. */
export function groundingTable(
  rows: readonly { readonly file: string; readonly grounding: GroundingSides }[],
  total: GroundingOverall,
): string {
  const lines = [
    '| session | specifics used | visible (pass) | visible (proxy) | recallable (proxy) | visible or recallable (proxy) | hidden (pass / proxy) | recall calls needed (proxy) |',
    '| --- | --: | --: | --: | --: | --: | --: | --: |',
    ...rows.map((row) => `| ${row.file} | ${cells(row.grounding)} |`),
    `| **all ${rows.length} sessions** | ${cells(total)} |`,
  ];
  if (total.belowPassThrough.length > 0) {
    lines.push(`\nproxy grounding below pass-through: ${total.belowPassThrough.join(', ')}`);
  }
  return lines.join('\n');
}
