/** `/help`: every command with its usage, plus the keys and `@` inclusion. */
import { lines, type OutputLine, type SlashCommand } from './types.js';

export const helpCommand: SlashCommand = {
  name: 'help',
  usage: ['/help'],
  summary: 'This list',
  run(_args, { commands }) {
    const rows: OutputLine[] = commands.flatMap((command) => [
      ...command.usage.map((usage) => ({ text: `  ${usage}` })),
      { text: `      ${command.summary}`, tone: 'dim' as const },
    ]);
    return Promise.resolve(
      lines(
        { text: 'Commands', tone: 'heading' },
        ...rows,
        { text: 'Input', tone: 'heading' },
        '  @path, @"path with spaces", @src/**/*.ts',
        { text: '      include files in your message', tone: 'dim' },
        '  Tab',
        { text: '      complete commands, setting keys and values', tone: 'dim' },
        '  ↑ / ↓',
        { text: '      recall earlier input', tone: 'dim' },
        '  Ctrl-C',
        { text: '      cancel the running turn; again (or when idle) exit', tone: 'dim' },
        '  Ctrl-D',
        { text: '      exit (on an empty line)', tone: 'dim' },
      ),
    );
  },
};
