/**
 * Which tool results the proxy may replace by the pointer: high-density's `optimize()` run on the
 * decision history, reduced to the result sites whose responses it removed or replaced. The proxy
 * never removes a call or a result (pairing stays intact); it only replaces a result's content.
 */
import { optimizeDensity } from '../../core/compression/density/optimize/optimizeDensity.js';
import type { DensityConfig } from '../../core/compression/types.js';
import type { ContentBlock, IContent } from '../../services/history/IContent.js';
import { PROXY_POINTER_CHARS } from './proxyPointer.js';
import type { ResultSite, WireHistory } from '../wire/wireHistory.js';

/** READ→WRITE pruning (shell reads and writes too); no recency, no inclusion rewrites. */
export const PROXY_DENSITY_CONFIG: DensityConfig = {
  readWritePruning: true,
  fileDedupe: false,
  recencyPruning: false,
  recencyRetention: 3,
  workspaceRoot: '/',
  shellFileOps: true,
};

/** Block indices of the tool_response blocks density prunes, by decision-history index. */
export type PrunedPositions = ReadonlyMap<number, ReadonlySet<number>>;

/** The tool_response blocks `optimize()` removes or replaces in `history`, by position. */
export function prunedPositions(
  history: readonly IContent[],
  config: DensityConfig = PROXY_DENSITY_CONFIG,
): PrunedPositions {
  const result = optimizeDensity(history, config);
  const pruned = new Map<number, Set<number>>();
  const addResponses = (index: number, keep: (block: ContentBlock) => boolean) => {
    (history[index]?.blocks ?? []).forEach((block, blockIndex) => {
      if (block.type !== 'tool_response' || keep(block)) return;
      const blocks = pruned.get(index);
      if (blocks === undefined) pruned.set(index, new Set([blockIndex]));
      else blocks.add(blockIndex);
    });
  };
  for (const index of result.removals) addResponses(index, () => false);
  for (const [index, replacement] of result.replacements) {
    const kept = new Set(replacement.blocks);
    addResponses(index, (block) => kept.has(block));
  }
  return pruned;
}

/**
 * The sites of `sites` (a request's, in request order) at `pruned` positions that the proxy can
 * replace (text content, longer than the pointer). In request order.
 */
export function prunedSites(sites: readonly ResultSite[], pruned: PrunedPositions): ResultSite[] {
  if (pruned.size === 0) return [];
  return sites.filter(
    (site) =>
      pruned.get(site.messageIndex)?.has(site.blockIndex) === true &&
      site.end - site.start > PROXY_POINTER_CHARS + 2,
  );
}

/**
 * The result sites whose content density would prune in this request, by position (a reused call
 * id names several results), restricted to results the proxy can replace (text content, longer
 * than the pointer). In request order.
 */
export function planProxyEdits(
  wire: WireHistory,
  config: DensityConfig = PROXY_DENSITY_CONFIG,
): ResultSite[] {
  return prunedSites(wire.sites, prunedPositions(wire.history, config));
}
