import { describe, expect, it } from 'vitest';
import type { CliSubcommand } from './CliSubcommand.js';
import { parseCliArgs, type ParsedCli } from './parseCliArgs.js';

const cwd = '/home/me/project';

async function agent(argv: string[]): Promise<Extract<ParsedCli, { kind: 'agent' }>['config']> {
  const parsed = await parseCliArgs(argv, { cwd });
  if (parsed.kind !== 'agent') throw new Error(`expected agent, got ${JSON.stringify(parsed)}`);
  return parsed.config;
}

async function usageError(argv: string[]): Promise<string> {
  const parsed = await parseCliArgs(argv, { cwd });
  if (parsed.kind !== 'error') throw new Error(`expected an error, got ${JSON.stringify(parsed)}`);
  return parsed.message;
}

describe('parseCliArgs', () => {
  it('defaults: interactive, cwd workspace, no yolo, no settings', async () => {
    const config = await agent([]);
    expect(config).toEqual({ settings: [], yolo: false, workspace: cwd });
  });

  it('reads every agent flag', async () => {
    const config = await agent([
      '-p',
      'fix the bug',
      '--provider',
      'Anthropic',
      '--model',
      'claude-sonnet-5',
      '--base-url',
      'http://127.0.0.1:9/v1',
      '--profile',
      'work',
      '--yolo',
      '--workspace',
      '../other',
      '--resume',
      'latest',
    ]);
    expect(config).toEqual({
      prompt: 'fix the bug',
      provider: 'anthropic',
      model: 'claude-sonnet-5',
      baseUrl: 'http://127.0.0.1:9/v1',
      profile: 'work',
      yolo: true,
      workspace: '/home/me/other',
      resume: 'latest',
      settings: [],
    });
  });

  it('--set is repeatable and validated by the /set parser', async () => {
    const config = await agent([
      '--set',
      'compression.strategy=high-density',
      '--set',
      'compression.density.recencyRetention=5',
    ]);
    expect(config.settings).toEqual([
      { key: 'compression.strategy', raw: 'high-density' },
      { key: 'compression.density.recencyRetention', raw: '5' },
    ]);
  });

  it('a bad --set value is a one-line error carrying the parser message', async () => {
    const message = await usageError(['--set', 'compression.density.recencyRetention=-1']);
    expect(message).toContain("'compression.density.recencyRetention' must be an integer ≥ 1");
    expect(message).not.toContain('\n');
  });

  it('an unknown --set key suggests the closest keys', async () => {
    expect(await usageError(['--set', 'compression.strategi=high-density'])).toContain(
      "Did you mean 'compression.strategy'",
    );
  });

  it('--set without = is a usage error', async () => {
    expect(await usageError(['--set', 'compression.strategy'])).toContain('key=value');
  });

  it('rejects unknown flags, stray arguments and unknown providers', async () => {
    expect(await usageError(['--frobnicate'])).toMatch(/Unknown argument/i);
    expect(await usageError(['hello'])).toMatch(/Unknown argument/i);
    expect(await usageError(['--provider', 'openia'])).toContain('openai, anthropic, gemini');
  });

  it('rejects a flag that needs a value when it has none', async () => {
    expect(await usageError(['--model'])).toMatch(/model/);
  });

  it('rejects a flag given twice when it takes one value', async () => {
    expect(await usageError(['--model', 'a', '--model', 'b'])).toContain('more than once');
  });

  it('-p with an empty value is kept as empty (stdin supplies the prompt)', async () => {
    expect((await agent(['-p', ''])).prompt).toBe('');
  });

  it('help and version', async () => {
    const help = await parseCliArgs(['--help'], { cwd });
    expect(help.kind).toBe('help');
    if (help.kind === 'help') {
      expect(help.text).toContain('--provider');
      expect(help.text).toContain('--yolo');
    }
    expect(await parseCliArgs(['-v'], { cwd })).toEqual({ kind: 'version' });
  });

  it('#12.9 `dense replay --help` is the subcommand help (exit 0), not a missing-argument error', async () => {
    const replay: CliSubcommand = {
      command: 'replay <file>',
      describe: 'Replay a session',
      builder: (y) =>
        y
          .positional('file', { type: 'string', describe: 'the transcript' })
          .option('json', { type: 'boolean', describe: 'one JSON object' }),
      run: () => Promise.resolve(0),
    };
    for (const flag of ['--help', '-h']) {
      const parsed = await parseCliArgs(['replay', flag], { cwd, subcommands: [replay] });
      expect(parsed.kind).toBe('help');
      if (parsed.kind === 'help') {
        expect(parsed.text).toContain('dense replay <file>');
        expect(parsed.text).toContain('--json');
      }
    }
  });

  it('dispatches a registered subcommand with its own arguments', async () => {
    const replay: CliSubcommand = {
      command: 'replay <file>',
      describe: 'Replay a session',
      builder: (y) => y.positional('file', { type: 'string' }).option('json', { type: 'boolean' }),
      run: () => Promise.resolve(0),
    };
    const parsed = await parseCliArgs(['replay', 'a.jsonl', '--json'], {
      cwd,
      subcommands: [replay],
    });
    expect(parsed.kind).toBe('subcommand');
    if (parsed.kind === 'subcommand') {
      expect(parsed.subcommand).toBe(replay);
      expect(parsed.args.file).toBe('a.jsonl');
      expect(parsed.args.json).toBe(true);
    }
  });
});
