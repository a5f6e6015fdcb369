/**
 * A real CliSession in temp directories for slash-command tests: `run('/set …')` returns the
 * command's output as text. Call `setup()` in beforeEach and `teardown()` in afterEach.
 */
import { runSlashCommand } from '../commands/slashCommands.js';
import type { CommandOutput } from '../commands/types.js';
import type { CliSession } from '../session/CliSession.js';
import { makeTestDirs, makeTestSession, type TestDirs } from './cliTestSession.js';

export function commandOutputText(output: CommandOutput): string {
  return output.kind === 'lines' ? output.lines.map((l) => l.text).join('\n') : output.kind;
}

export class SlashCommandHarness {
  dirs!: TestDirs;
  cli!: CliSession;

  async setup(): Promise<void> {
    this.dirs = await makeTestDirs();
    ({ cli: this.cli } = await makeTestSession({ dirs: this.dirs }));
  }

  async teardown(): Promise<void> {
    this.cli.dispose();
    await this.dirs.cleanup();
  }

  async run(line: string): Promise<string> {
    return commandOutputText(await runSlashCommand(line, { cli: this.cli }));
  }
}
