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

describe('/set', () => {
  it('sets a value for this session only and says so', async () => {
    expect(harness.cli.settings.get('compression.strategy')).toBe('high-density');
    expect(await run('/set compression.strategy middle-out')).toContain(
      'compression.strategy = middle-out (this session only)',
    );
    expect(harness.cli.settings.get('compression.strategy')).toBe('middle-out');
    expect(harness.cli.settings.getSource('compression.strategy')).toBe('session');
  });

  it('/set <key> shows description, type, default, current value and its source', async () => {
    await run('/set compression.density.recencyRetention 4');
    const shown = await run('/set compression.density.recencyRetention');
    expect(shown).toContain('Number of recent results to keep per tool type');
    expect(shown).toContain('type:    an integer ≥ 1');
    expect(shown).toContain('default: 3');
    expect(shown).toContain('current: 4 (set this session)');
  });

  it('invalid key or value: the parser message, and nothing changes', async () => {
    const before = harness.cli.settings.get('compression.density.recencyRetention');
    const output = await runSlashCommand('/set compression.density.recencyRetention -5', {
      cli: harness.cli,
    });
    expect(output.kind === 'lines' && output.lines[0]?.tone).toBe('error');
    expect(text(output)).toBe(
      "'compression.density.recencyRetention' must be an integer ≥ 1; got -5.",
    );
    expect(harness.cli.settings.get('compression.density.recencyRetention')).toBe(before);
    expect(await run('/set compression.stratgy high-density')).toContain(
      "Did you mean 'compression.strategy'",
    );
    expect(await run('/set compression.strategy fastest')).toContain(
      'must be one of middle-out, top-down-truncation, one-shot, high-density',
    );
    expect(harness.cli.settings.get('compression.strategy')).toBe('high-density');
  });

  it('/set unset <key> returns to the default for this session', async () => {
    await run('/set compression.density.recencyPruning true');
    expect(await run('/set unset compression.density.recencyPruning')).toBe(
      'compression.density.recencyPruning is back to its default (false) for this session.',
    );
    expect(harness.cli.settings.get('compression.density.recencyPruning')).toBe(false);
    expect(await run('/set unset')).toBe('Usage: /set unset <key>');
  });

  it('bare /set lists every setting with non-default sources marked', async () => {
    await run('/set compression.strategy middle-out');
    const listed = await run('/set');
    for (const key of ['compression.strategy', 'compression.density.fileDedupe', 'context-limit']) {
      expect(listed).toContain(key);
    }
    expect(listed).toMatch(/compression\.strategy\s+middle-out {2}\(set this session\)/);
  });
});
