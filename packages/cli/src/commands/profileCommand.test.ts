import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTestDirs, makeTestSession, type TestDirs } from '../test-utils/cliTestSession.js';
import type { CliSession } from '../session/CliSession.js';
import { runSlashCommand } from './slashCommands.js';
import type { CommandOutput } from './types.js';

let dirs: TestDirs;
let cli: CliSession;

beforeEach(async () => {
  dirs = await makeTestDirs();
  ({ cli } = await makeTestSession({ dirs }));
});

afterEach(async () => {
  cli.dispose();
  await dirs.cleanup();
});

function text(output: CommandOutput): string {
  return output.kind === 'lines' ? output.lines.map((l) => l.text).join('\n') : output.kind;
}

const run = async (line: string) => text(await runSlashCommand(line, { cli }));

describe('/profile', () => {
  it('save writes the non-default settings and the provider; load restores them', async () => {
    await run('/set compression.strategy high-density');
    await run('/set compression.density.recencyPruning true');
    expect(await run('/profile save t')).toContain(
      `Saved profile 't' to ${path.join(dirs.home, 'profiles', 't.json')}`,
    );
    const saved = JSON.parse(
      await readFile(path.join(dirs.home, 'profiles', 't.json'), 'utf8'),
    ) as unknown;
    expect(saved).toEqual({
      version: 1,
      provider: 'openai',
      model: 'scripted-model',
      settings: {
        'compression.strategy': 'high-density',
        'compression.density.recencyPruning': true,
      },
    });
    await run('/set unset compression.strategy');
    expect(cli.settings.get('compression.strategy')).toBe('middle-out');
    expect(await run('/profile load t')).toContain("Loaded profile 't'");
    expect(cli.settings.get('compression.strategy')).toBe('high-density');
    expect(cli.settings.getSource('compression.strategy')).toBe('profile');
  });

  it('a broken profile shows the manager error and keeps the current settings', async () => {
    await run('/set compression.strategy one-shot');
    await mkdir(path.join(dirs.home, 'profiles'), { recursive: true });
    await writeFile(
      path.join(dirs.home, 'profiles', 'broken.json'),
      JSON.stringify({ version: 1, settings: { 'compression.strategy': 'fastest' } }),
    );
    const output = await runSlashCommand('/profile load broken', { cli });
    expect(output.kind === 'lines' && output.lines[0]?.tone).toBe('error');
    expect(text(output)).toMatch(
      /broken\.json: setting 'compression\.strategy'.*Current settings are unchanged\./,
    );
    expect(cli.settings.get('compression.strategy')).toBe('one-shot');
    expect(cli.activeProfile).toBeUndefined();
  });

  it('list and delete', async () => {
    expect(await run('/profile list')).toContain('No saved profiles yet');
    await run('/profile save a');
    await run('/profile save b');
    expect(await run('/profile list')).toBe('Profiles:\n  a\n  b  (active)');
    expect(await run('/profile delete a')).toBe("Deleted profile 'a'.");
    expect(await run('/profile delete a')).toMatch(/Profile 'a' does not exist/);
    expect(await run('/profile list')).toBe('Profiles:\n  b  (active)');
  });

  it('bad usage and bad names are one clear line', async () => {
    expect(await run('/profile')).toContain('Usage: /profile');
    expect(await run('/profile load')).toBe('Usage: /profile load <name>');
    expect(await run('/profile save ../evil')).toContain("Invalid profile name '../evil'");
  });
});
