/** `/help`: every command with its usage, plus the keys and `@` inclusion. */
import { lines, type OutputLine, type SlashCommand } from './types.js';

export const helpCommand: SlashCommand = {
  name: 'help',
  usage: ['/help'],
  summary: 'This list',
  run(_args, { commands }) {
    const width = Math.max(...commands.flatMap((c) => c.usage.map((u) => u.length)));
    const rows: OutputLine[] = commands.flatMap((command) =>
      command.usage.map((usage, i) => ({
        text: `  ${usage.padEnd(width)}  ${i === 0 ? command.summary : ''}`.trimEnd(),
      })),
    );
    return Promise.resolve(
      lines(
        { text: 'Commands', tone: 'heading' },
        ...rows,
        { text: 'Input', tone: 'heading' },
        '  @path, @"path with spaces", @src/**/*.ts   include files in your message',
        '  Tab completes commands, setting keys and values; ↑/↓ recall earlier input',
        '  Ctrl-C cancels the running turn; Ctrl-C again (or when idle) exits; Ctrl-D on empty input exits',
      ),
    );
  },
};
