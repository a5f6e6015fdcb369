/**
 * `dense mcp`: a stdio MCP server whose one tool, `recall`, gives back the exact original a
 * `dense proxy` pointer names, for clients whose model reaches tools through MCP
 * (`claude mcp add dense -- dense mcp`; `codex mcp add dense -- dense mcp`). Runs until the
 * client closes stdin; stdout carries only the protocol.
 */
import type { Argv } from 'yargs';
import type { CliSubcommand } from '../args/CliSubcommand.js';
import { EXIT } from '../cliErrors.js';
import { recallLookupFor } from './recall.js';

export const mcpCommand: CliSubcommand = {
  command: 'mcp',
  describe: 'Run an MCP server (stdio) whose `recall` tool returns what dense proxy pointed',
  builder: (yargs: Argv) =>
    yargs.epilogue(
      'Claude Code: claude mcp add dense -- dense mcp. ' +
        'Codex: codex mcp add dense -- dense mcp.',
    ),
  async run(_args, io) {
    const [{ createRecallMcpServer }, { StdioServerTransport }] = await Promise.all([
      import('./recallMcpServer.js'),
      import('@modelcontextprotocol/sdk/server/stdio.js'),
    ]);
    const server = createRecallMcpServer(recallLookupFor(io.env));
    const transport = new StdioServerTransport(io.stdin, io.stdout);
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
      io.stdin.once('end', () => resolve());
    });
    await server.connect(transport);
    await closed;
    await server.close();
    return EXIT.ok;
  },
};
