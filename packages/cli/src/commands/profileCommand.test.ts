import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  commandOutputText as text,
  SlashCommandHarness,
} from '../test-utils/slashCommandHarness.js';
import { runSlashCommand } from './slashCommands.js';

const harness = new SlashCommandHarness();
beforeEach(() => harness.setup());
afterEach(() => harness.teardown());
const run = (line: string) => harness.run(line);

describe('/profile', () => {
  it('save writes the non-default settings and the provider; load restores them', async () => {
    await run('/set compression.strategy middle-out');
    await run('/set compression.density.recencyPruning true');
    expect(await run('/profile save t')).toContain(
      `Saved profile 't' to ${path.join(harness.dirs.home, 'profiles', 't.json')}`,
    );
    const saved = JSON.parse(
      await readFile(path.join(harness.dirs.home, 'profiles', 't.json'), 'utf8'),
    ) as unknown;
    expect(saved).toEqual({
      version: 1,
      provider: 'openai',
      model: 'scripted-model',
      settings: {
        'compression.strategy': 'middle-out',
        'compression.density.recencyPruning': true,
      },
    });
    await run('/set unset compression.strategy');
    expect(harness.cli.settings.get('compression.strategy')).toBe('high-density');
    expect(await run('/profile load t')).toContain("Loaded profile 't'");
    expect(harness.cli.settings.get('compression.strategy')).toBe('middle-out');
    expect(harness.cli.settings.getSource('compression.strategy')).toBe('profile');
  });

  it('a broken profile shows the manager error and keeps the current settings', async () => {
    await run('/set compression.strategy one-shot');
    await mkdir(path.join(harness.dirs.home, 'profiles'), { recursive: true });
    await writeFile(
      path.join(harness.dirs.home, 'profiles', 'broken.json'),
      JSON.stringify({ version: 1, settings: { 'compression.strategy': 'fastest' } }),
    );
    const output = await runSlashCommand('/profile load broken', { cli: harness.cli });
    expect(output.kind === 'lines' && output.lines[0]?.tone).toBe('error');
    expect(text(output)).toMatch(
      /broken\.json: setting 'compression\.strategy'.*Current settings are unchanged\./,
    );
    expect(harness.cli.settings.get('compression.strategy')).toBe('one-shot');
    expect(harness.cli.activeProfile).toBeUndefined();
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
