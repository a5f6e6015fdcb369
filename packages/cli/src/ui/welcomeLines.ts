/** What the interactive session says first: who it talks to, where, and how to get help. */
import type { OutputLine } from '../commands/types.js';
import type { CliSession } from '../session/CliSession.js';
import { cliVersion } from '../version.js';

export function welcomeLines(cli: CliSession): OutputLine[] {
  const { provider, model } = cli.providers.config;
  const profile = cli.activeProfile === undefined ? '' : ` · profile '${cli.activeProfile}'`;
  const lines: OutputLine[] = [
    { text: `dense ${cliVersion()} · ${provider}/${model}${profile}`, tone: 'heading' },
    { text: `workspace ${cli.workspaceRoot}`, tone: 'dim' },
    {
      text: 'Type a message, @path to include files, /help for commands, Ctrl-C to cancel or exit.',
      tone: 'dim',
    },
  ];
  if (cli.resumed) {
    const skipped =
      cli.resumed.skippedLines > 0 ? ` (${cli.resumed.skippedLines} unreadable lines skipped)` : '';
    lines.push({
      text: `Resumed session ${cli.resumed.sessionId}: ${cli.resumed.entries} entries${skipped}.`,
      tone: 'info',
    });
    if (cli.resumed.workspaceRoot !== cli.workspaceRoot) {
      lines.push({
        text: `It was recorded in ${cli.resumed.workspaceRoot}; paths in it may not match this workspace.`,
        tone: 'warning',
      });
    }
  }
  return lines;
}
