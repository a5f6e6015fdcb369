/**
 * The subcommands `dense` knows besides the agent. Other modules add theirs here (one import and
 * one list entry each); `main` passes this list to `parseCliArgs`.
 */
import type { CliSubcommand } from './CliSubcommand.js';
import { demoCommand } from '../commands/demo.js';
import { mcpCommand } from '../commands/mcp.js';
import { proxyCommand } from '../commands/proxy.js';
import { recallCommand } from '../commands/recall.js';
import { replayCommand } from '../commands/replay.js';
import { savingsCommand } from '../commands/savings.js';
import { statuslineCommand } from '../commands/statusline.js';
import { tokenCommand } from '../commands/token.js';

export const CLI_SUBCOMMANDS: readonly CliSubcommand[] = [
  replayCommand,
  savingsCommand,
  demoCommand,
  proxyCommand,
  recallCommand,
  mcpCommand,
  statuslineCommand,
  tokenCommand,
];
