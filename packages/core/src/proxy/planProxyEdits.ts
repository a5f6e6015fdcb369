/**
 * Which tool results the proxy may replace by the pointer: high-density's `optimize()` run on the
 * decision history, reduced to the call ids whose responses it removed or replaced. The proxy
 * never removes a call or a result (pairing stays intact); it only replaces a result's content.
 */
import { optimizeDensity } from '../core/compression/density/optimizeDensity.js';
import type { DensityConfig } from '../core/compression/types.js';
import type { ContentBlock } from '../services/history/IContent.js';
import { PRUNED_POINTER } from '../core/compression/densityVocabulary.js';
import type { WireHistory } from './wireHistory.js';

/** READ→WRITE pruning (shell reads and writes too); no recency, no inclusion rewrites. */
export const PROXY_DENSITY_CONFIG: DensityConfig = {
  readWritePruning: true,
  fileDedupe: false,
  recencyPruning: false,
  recencyRetention: 3,
  workspaceRoot: '/',
  shellFileOps: true,
};

/** What a pruned result is replaced with (the high-density pointer). */
export const PROXY_POINTER = PRUNED_POINTER;

function responseIds(blocks: readonly ContentBlock[]): string[] {
  return blocks.flatMap((block) => (block.type === 'tool_response' ? [block.callId] : []));
}

/**
 * Call ids (client ids) whose result content density would prune, restricted to results the
 * proxy can replace (text content, longer than the pointer).
 */
export function planProxyEdits(
  wire: WireHistory,
  config: DensityConfig = PROXY_DENSITY_CONFIG,
): Set<string> {
  const { history } = wire;
  const result = optimizeDensity(history, config);
  const pruned = new Set<string>();
  for (const index of result.removals) {
    for (const id of responseIds(history[index]?.blocks ?? [])) pruned.add(id);
  }
  for (const [index, replacement] of result.replacements) {
    const kept = new Set(replacement.blocks);
    for (const block of history[index]?.blocks ?? []) {
      if (block.type === 'tool_response' && !kept.has(block)) pruned.add(block.callId);
    }
  }
  const editable = new Set<string>();
  for (const id of pruned) {
    const site = wire.sites.get(id);
    if (site !== undefined && site.end - site.start > PROXY_POINTER.length + 2) editable.add(id);
  }
  return editable;
}
