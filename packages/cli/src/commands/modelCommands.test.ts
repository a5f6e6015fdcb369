import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { knownModels } from '@dense/core';
import { makeTestDirs, makeTestSession, type TestDirs } from '../test-utils/cliTestSession.js';
import { commandOutputText } from '../test-utils/slashCommandHarness.js';
import { completeInput } from './completeInput.js';
import { runSlashCommand } from './slashCommands.js';

let dirs: TestDirs;
beforeEach(async () => {
  dirs = await makeTestDirs();
});
afterEach(async () => {
  await dirs.cleanup();
});

describe('/model and /provider', () => {
  it('#13.4 /model lists the known models of the provider and switches model', async () => {
    const { cli } = await makeTestSession({
      dirs,
      config: { provider: 'openai', model: 'gpt-5.4' },
    });
    const run = async (line: string) => commandOutputText(await runSlashCommand(line, { cli }));
    const listed = await run('/model');
    expect(listed).toContain('Model: openai/scripted-model');
    for (const name of knownModels('openai')) expect(listed).toContain(name);
    expect(listed).not.toContain('claude-');
    expect(await run('/model gpt-4o')).toBe('Now using openai/gpt-4o for this session.');
    expect(cli.providers.current.model).toBe('gpt-4o');
    expect(await run('/model my-local-model')).toContain('not in the model table');
    expect(completeInput('/model gpt-4', { profileNames: [] })?.candidates).toEqual(
      expect.arrayContaining(['gpt-4.1', 'gpt-4o']),
    );
    cli.dispose();
  });

  it('#13.4 /provider switches to another provider; an unknown one changes nothing', async () => {
    const { cli } = await makeTestSession({ dirs });
    const run = async (line: string) => commandOutputText(await runSlashCommand(line, { cli }));
    expect(await run('/provider')).toContain('Available: openai, anthropic, gemini');
    expect(await run('/provider mistral')).toContain("Unknown provider 'mistral'");
    expect(await run('/provider anthropic')).toContain('Now using anthropic/');
    expect(cli.providers.config.provider).toBe('anthropic');
    cli.dispose();
  });
});

describe('/sessions and /resume', () => {
  it('#13.4 /sessions lists recordings with their first prompt; /resume loads one into this session', async () => {
    const first = await makeTestSession({ dirs, replies: [{ text: 'noted' }] });
    await first.cli.session.sendMessage('remember the number 42');
    first.cli.dispose();
    const second = await makeTestSession({ dirs, replies: [{ text: 'it was 42' }] });
    const run = async (line: string) =>
      commandOutputText(await runSlashCommand(line, { cli: second.cli }));
    const listed = await run('/sessions');
    expect(listed).toContain(first.cli.session.sessionId);
    expect(listed).toContain('remember the number 42');
    expect(listed).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}\s+\d+ KB/);
    expect(await run('/resume nope')).toContain("No recorded session 'nope'");
    const resumed = await run(`/resume ${first.cli.session.sessionId.slice(0, 17)}`);
    expect(resumed).toContain(`Resumed ${first.cli.session.sessionId}: 2 entries`);
    expect(second.cli.session.history.length).toBe(2);
    await second.cli.session.sendMessage('what was it?');
    expect(JSON.stringify(second.provider.requests.at(-1)?.contents)).toContain('number 42');
    const own = await readFile(second.cli.recorder.path, 'utf8');
    expect(own).toContain('remember the number 42');
    second.cli.dispose();
  });
});
