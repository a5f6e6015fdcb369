/**
 * The MCP server behind `dense mcp`: one tool, `recall`, that gives back the exact original a
 * `dense proxy` pointer names. A missing or malformed id is a tool error result (one line saying
 * why), not a protocol error. Loaded only by `dense mcp`: the SDK is not needed by other commands.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { RecallLookup } from '../recall/runRecall.js';
import { cliVersion } from '../version.js';
import { lookupOriginal } from './recall.js';

const RECALL_DESCRIPTION =
  'Return the exact original of a tool result that was replaced by a pointer naming ' +
  '`dense recall <id>` (id: an r followed by 10 hex digits, e.g. r0123456789).';

/** The tool's answer for `id`: the original as text, or one line saying why there is none. */
export async function recallToolResult(archive: RecallLookup, id: string): Promise<CallToolResult> {
  const found = await lookupOriginal(archive, id);
  switch (found.kind) {
    case 'found':
      return { content: [{ type: 'text', text: found.bytes.toString('utf8') }] };
    case 'missing':
      return {
        isError: true,
        content: [{ type: 'text', text: archive.missingMessage(id, found.reason) }],
      };
    case 'unreadable':
      return { isError: true, content: [{ type: 'text', text: found.message }] };
    default: {
      const never: never = found;
      return never;
    }
  }
}

/** The MCP server, not yet connected to a transport. */
export function createRecallMcpServer(archive: RecallLookup): McpServer {
  const server = new McpServer({ name: 'dense', version: cliVersion() });
  server.registerTool(
    'recall',
    {
      title: 'Recall an original',
      description: RECALL_DESCRIPTION,
      inputSchema: { id: z.string().describe('The recall id the pointer names') },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ id }) => recallToolResult(archive, id),
  );
  return server;
}
