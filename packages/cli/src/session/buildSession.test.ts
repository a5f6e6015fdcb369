import { readFile, writeFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProfileError, ProviderError, type ApprovalRequest } from '@dense/core';
import { ScriptedProvider } from '@dense/core/test-utils';
import { CliError } from '../cliErrors.js';
import { makeTestDirs, makeTestSession, type TestDirs } from '../test-utils/cliTestSession.js';
import { buildSession } from './buildSession.js';
import { parseSessionRecording } from './loadSessionRecording.js';

let dirs: TestDirs;

beforeEach(async () => {
  dirs = await makeTestDirs();
});

afterEach(async () => {
  await dirs.cleanup();
});

async function writeProfile(name: string, body: unknown): Promise<void> {
  await mkdir(path.join(dirs.home, 'profiles'), { recursive: true });
  await writeFile(path.join(dirs.home, 'profiles', `${name}.json`), JSON.stringify(body));
}

describe('buildSession', () => {
  it('layers settings: defaults < --profile < --set', async () => {
    await writeProfile('lean', {
      version: 1,
      settings: {
        'compression.strategy': 'high-density',
        'compression.density.recencyRetention': 5,
      },
    });
    const { cli } = await makeTestSession({
      dirs,
      config: {
        profile: 'lean',
        settings: [{ key: 'compression.density.recencyRetention', raw: '7' }],
      },
    });
    expect(cli.settings.get('compression.strategy')).toBe('high-density');
    expect(cli.settings.getSource('compression.strategy')).toBe('profile');
    expect(cli.settings.get('compression.density.recencyRetention')).toBe(7);
    expect(cli.settings.getSource('compression.density.recencyRetention')).toBe('session');
    expect(cli.activeProfile).toBe('lean');
    cli.dispose();
  });

  it('#11.5 a compaction loop the handler refuses reaches the user as a notice', async () => {
    const { cli } = await makeTestSession({ dirs });
    const notices: string[] = [];
    const off = cli.onNotice((message) => notices.push(message));
    cli.session.compression.events.emit('compactionLoop', {
      sendsSinceCompression: 1,
      tokens: 900,
      thresholdTokens: 850,
      message: 'not compressing again yet',
    });
    off();
    expect(notices).toEqual(['not compressing again yet']);
    cli.dispose();
  });

  it('a broken --profile fails with the manager error naming the file and key', async () => {
    await writeProfile('bad', {
      version: 1,
      settings: { 'compression.density.recencyRetention': -2 },
    });
    const attempt = makeTestSession({ dirs, config: { profile: 'bad' } });
    await expect(attempt).rejects.toBeInstanceOf(ProfileError);
    await expect(attempt).rejects.toThrow(
      /bad\.json: setting 'compression\.density\.recencyRetention'/,
    );
  });

  it('takes provider, model and base URL from the profile unless flags say otherwise', async () => {
    await writeProfile('p', {
      version: 1,
      provider: 'anthropic',
      model: 'claude-sonnet-5',
      baseUrl: 'http://127.0.0.1:1',
      settings: {},
    });
    const seen: unknown[] = [];
    const build = (config: object) =>
      buildSession(
        { settings: [], yolo: false, workspace: dirs.workspace, profile: 'p', ...config },
        {
          env: dirs.env,
          interactive: true,
          createProvider: (c) => {
            seen.push(c);
            return new ScriptedProvider([], c.provider, c.model ?? 'default');
          },
        },
      );
    (await build({})).dispose();
    (await build({ provider: 'gemini' })).dispose();
    expect(seen).toEqual([
      { provider: 'anthropic', model: 'claude-sonnet-5', baseUrl: 'http://127.0.0.1:1' },
      { provider: 'gemini' },
    ]);
  });

  it('a missing API key is a typed provider error naming the variable', async () => {
    const attempt = buildSession(
      { settings: [], yolo: false, workspace: dirs.workspace, provider: 'anthropic' },
      { env: dirs.env, interactive: true },
    );
    await expect(attempt).rejects.toBeInstanceOf(ProviderError);
    await expect(attempt).rejects.toThrow(/ANTHROPIC_API_KEY/);
  });

  it('rejects a workspace that is not a directory', async () => {
    const attempt = makeTestSession({ dirs, config: { workspace: path.join(dirs.base, 'nope') } });
    await expect(attempt).rejects.toBeInstanceOf(CliError);
  });

  it('loads the system prompt with the workspace filled in', async () => {
    const { cli, provider } = await makeTestSession({ dirs, replies: [{ text: 'hi' }] });
    await cli.session.sendMessage('hello');
    const system = provider.requests[0]?.systemPrompt ?? '';
    expect(system).toContain(`Workspace root: ${dirs.workspace}`);
    expect(system).not.toContain('{{');
    cli.dispose();
  });

  it('records every entry to a JSONL file whose path is the transcriptPath', async () => {
    const { cli } = await makeTestSession({ dirs, replies: [{ text: 'hello back' }] });
    expect(cli.session.runtime.config.getTranscriptPath()).toBeUndefined();
    await cli.session.sendMessage('hello');
    const file = cli.session.runtime.config.getTranscriptPath();
    expect(file).toBe(path.join(dirs.home, 'sessions', `${cli.session.sessionId}.jsonl`));
    const recording = parseSessionRecording(await readFile(file!, 'utf8'), file!);
    expect(recording.header.sessionId).toBe(cli.session.sessionId);
    expect(recording.header.workspaceRoot).toBe(dirs.workspace);
    expect(recording.contents.map((c) => c.speaker)).toEqual(['human', 'ai']);
    const context = await cli.session.compression.buildCompressionContext('p1');
    expect(context.transcriptPath).toBe(file);
    cli.dispose();
  });

  it('--resume latest continues the recorded session: same id, same file, history restored', async () => {
    const first = await makeTestSession({ dirs, replies: [{ text: 'one' }] });
    await first.cli.session.sendMessage('first message');
    const file = first.cli.recorder.path;
    first.cli.dispose();

    const second = await makeTestSession({
      dirs,
      replies: [{ text: 'two' }],
      config: { resume: 'latest' },
    });
    expect(second.cli.session.sessionId).toBe(first.cli.session.sessionId);
    expect(second.cli.resumed).toEqual({
      sessionId: first.cli.session.sessionId,
      entries: 2,
      workspaceRoot: dirs.workspace,
      skippedLines: 0,
    });
    expect(second.cli.session.compression.isDensityDirty()).toBe(true);
    await second.cli.session.sendMessage('second message');
    expect(JSON.stringify(second.provider.requests[0]?.contents)).toContain('first message');
    const recording = parseSessionRecording(await readFile(file, 'utf8'), file);
    expect(recording.contents.map((c) => c.speaker)).toEqual(['human', 'ai', 'human', 'ai']);
    second.cli.dispose();
  });

  it('#13.4 --resume restores the recorded provider, model and base URL (never a key); flags still win', async () => {
    const seen: unknown[] = [];
    const build = (config: object) =>
      buildSession(
        { settings: [], yolo: false, workspace: dirs.workspace, ...config },
        {
          env: { ...dirs.env, ANTHROPIC_API_KEY: 'sk-secret-key' },
          interactive: true,
          createProvider: (c) => {
            seen.push(c);
            return new ScriptedProvider([{ text: 'ok' }], c.provider, c.model ?? 'default');
          },
        },
      );
    const first = await build({
      provider: 'anthropic',
      model: 'claude-opus-5',
      baseUrl: 'http://127.0.0.1:9/v1',
    });
    await first.session.sendMessage('hello');
    const text = await readFile(first.recorder.path, 'utf8');
    first.dispose();
    expect(text.split('\n')[0]).toContain('"baseUrl":"http://127.0.0.1:9/v1"');
    expect(text).not.toContain('sk-secret-key');
    (await build({ resume: 'latest' })).dispose();
    (await build({ resume: 'latest', model: 'claude-haiku-5-5' })).dispose();
    expect(seen.slice(1)).toEqual([
      { provider: 'anthropic', model: 'claude-opus-5', baseUrl: 'http://127.0.0.1:9/v1' },
      { provider: 'anthropic', model: 'claude-haiku-5-5', baseUrl: 'http://127.0.0.1:9/v1' },
    ]);
  });

  it('--resume with an unknown id is a clear error', async () => {
    const attempt = makeTestSession({ dirs, config: { resume: 'nope' } });
    await expect(attempt).rejects.toThrow(/No recorded sessions/);
  });

  it('one-shot sessions deny write tools without --yolo and say how to allow them', async () => {
    const { cli } = await makeTestSession({
      dirs,
      interactive: false,
      replies: [
        {
          toolCalls: [
            { id: 'w1', name: 'write_file', parameters: { file_path: 'a.txt', content: 'x' } },
          ],
        },
        { text: 'ok' },
      ],
    });
    await cli.session.sendMessage('write it');
    const tool = cli.session.history.getRawHistory().find((e) => e.speaker === 'tool');
    const block = tool?.blocks[0];
    expect(block?.type === 'tool_response' ? block.error : undefined).toMatch(
      /^TOOL_DENIED: .*--yolo/,
    );
    cli.dispose();
  });

  it('one-shot sessions with --yolo run write tools', async () => {
    const { cli } = await makeTestSession({
      dirs,
      interactive: false,
      config: { yolo: true },
      replies: [
        {
          toolCalls: [
            { id: 'w1', name: 'write_file', parameters: { file_path: 'a.txt', content: 'x' } },
          ],
        },
        { text: 'ok' },
      ],
    });
    await cli.session.sendMessage('write it');
    expect(await readFile(path.join(dirs.workspace, 'a.txt'), 'utf8')).toBe('x');
    cli.dispose();
  });

  it('interactive sessions ask the approval broker; "no" denies, "always" stops asking', async () => {
    const write = (id: string) => ({
      toolCalls: [{ id, name: 'write_file', parameters: { file_path: `${id}.txt`, content: id } }],
    });
    const { cli } = await makeTestSession({
      dirs,
      replies: [write('a'), write('b'), write('c'), { text: 'done' }],
    });
    const asked: ApprovalRequest[] = [];
    const answers = ['no', 'always'] as const;
    cli.approvals.events.on('changed', (pending) => {
      if (!pending) return;
      asked.push(pending.request);
      pending.answer(answers[asked.length - 1] ?? 'no');
    });
    await cli.session.sendMessage('write three files');
    expect(asked.map((r) => r.toolName)).toEqual(['write_file', 'write_file']);
    await expect(readFile(path.join(dirs.workspace, 'a.txt'), 'utf8')).rejects.toThrow();
    expect(await readFile(path.join(dirs.workspace, 'b.txt'), 'utf8')).toBe('b');
    expect(await readFile(path.join(dirs.workspace, 'c.txt'), 'utf8')).toBe('c');
    cli.dispose();
  });
});
