import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestDirs, makeTestSession, type TestDirs } from '../test-utils/cliTestSession.js';
import { commandHints, runSlashCommand, splitCommand, SLASH_COMMANDS } from './slashCommands.js';
import type { CommandOutput } from './types.js';

let dirs: TestDirs;

beforeEach(async () => {
  dirs = await makeTestDirs();
});

afterEach(async () => {
  await dirs.cleanup();
});

function text(output: CommandOutput): string {
  return output.kind === 'lines' ? output.lines.map((l) => l.text).join('\n') : output.kind;
}

describe('session commands', () => {
  it('/context returns the report with the density switches', async () => {
    const { cli } = await makeTestSession({ dirs, replies: [{ text: 'hi' }] });
    await cli.session.sendMessage('hello');
    const output = await runSlashCommand('/context', { cli });
    expect(output.kind).toBe('context');
    if (output.kind === 'context') {
      expect(output.report.breakdown.entries).toBe(2);
      expect(output.report.strategy).toBe('high-density');
      expect(output.switches).toEqual({ readWrite: true, dedup: true, recency: false });
    }
    cli.dispose();
  });

  it('/compress runs the active strategy and reports before → after', async () => {
    const { cli } = await makeTestSession({ dirs, replies: [{ text: 'hi' }] });
    await runSlashCommand('/set compression.strategy top-down-truncation', { cli });
    await cli.session.sendMessage('hello');
    const shown = text(await runSlashCommand('/compress', { cli }));
    expect(shown).toMatch(
      /^Nothing to compress yet: [a-z ,]+ \(top-down-truncation; \d+ → \d+ tokens\)\.$/,
    );
    cli.dispose();
  });

  it('/todo shows the list, /clear forgets the conversation, /quit quits', async () => {
    const { cli } = await makeTestSession({ dirs, replies: [{ text: 'hi' }] });
    cli.session.todoStore.set([{ id: '1', content: 'Write tests', status: 'in_progress' }]);
    expect(text(await runSlashCommand('/todo', { cli }))).toContain('[>] Write tests');
    await cli.session.sendMessage('hello');
    expect(text(await runSlashCommand('/clear', { cli }))).toContain('Conversation cleared');
    expect(cli.session.history.length).toBe(0);
    expect(await runSlashCommand('/quit', { cli })).toEqual({ kind: 'quit' });
    expect(await runSlashCommand('/exit', { cli })).toEqual({ kind: 'quit' });
    cli.dispose();
  });

  it('/help lists every command; an unknown command suggests the closest', async () => {
    const { cli } = await makeTestSession({ dirs });
    const help = text(await runSlashCommand('/help', { cli }));
    for (const command of SLASH_COMMANDS) expect(help).toContain(`/${command.name}`);
    expect(text(await runSlashCommand('/contxt', { cli }))).toBe(
      'Unknown command /contxt. Did you mean /context? Type /help for the list.',
    );
    cli.dispose();
  });

  it('#12.9 an unknown command never suggests an unrelated one (/model is not /todo)', () => {
    const names = ['set', 'profile', 'context', 'compress', 'todo', 'clear', 'help', 'quit'];
    expect(commandHints('model', names)).toEqual([]);
    expect(commandHints('hlep', names)).toEqual(['/help']);
    expect(commandHints('todos', names)).toEqual(['/todo']);
    expect(commandHints('compres', names)).toEqual(['/compress']);
  });

  it('splitCommand separates the name from the argument text', () => {
    expect(splitCommand('/set a b c')).toEqual({ name: 'set', args: 'a b c' });
    expect(splitCommand('  /help')).toEqual({ name: 'help', args: '' });
  });
});
