/**
 * `recall`: the exact original of a tool result or `@` file inclusion that density or
 * compression pruned or summarized, by the recall id its pointer names — from the session's own
 * store, without re-running anything. Read-only; every failure is a tool result.
 */
import { z } from 'zod';
import { defineTool } from '../defineTool.js';
import { toolFailure, toolSuccess, type ToolResult } from '../Tool.js';
import type { RecallLookup } from '../../services/recall/RecallStore.js';
import { RECALL_TOOL } from '../../core/compression/densityVocabulary.js';

const FAILURE_CODES = {
  'unknown-id': 'RECALL_UNKNOWN_ID',
  unavailable: 'RECALL_UNAVAILABLE',
  corrupt: 'RECALL_STORE_CORRUPT',
} as const;

function resultOf(id: string, lookup: RecallLookup): ToolResult {
  if (lookup.kind === 'found') {
    return toolSuccess(lookup.content, `Recalled ${id} (${lookup.content.length} chars)`);
  }
  return toolFailure(FAILURE_CODES[lookup.kind], lookup.message);
}

export const recallTool = defineTool({
  name: RECALL_TOOL,
  kind: 'read',
  description:
    'Returns the exact original content of a tool result or included file that was pruned or summarized to save context, by the recall id its pointer names (e.g. "recall id r0123456789"). Reads the session\'s own record; runs nothing again.',
  parameters: z.object({
    id: z
      .string()
      .describe('The recall id, as named in the pointer or summary line (r + 10 hex digits).'),
  }),
  describe: (params) => `Recall ${params.id}`,
  async execute(params, context) {
    const id = params.id.trim();
    const store = context.recallStore;
    if (store === undefined) {
      return toolFailure(
        'RECALL_UNAVAILABLE',
        'recall is not available in this session: it keeps no store of original results. Re-run the tool if you need the content.',
      );
    }
    try {
      return resultOf(id, await store.lookup(id));
    } catch (error) {
      return toolFailure(
        'RECALL_UNAVAILABLE',
        `The store of original results could not be read: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  },
});
