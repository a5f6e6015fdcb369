import { copyFile, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classifyJsonValue, detectTranscriptFormat } from './detectTranscriptFormat.js';
import { importTranscript, importTranscriptSessions } from './importTranscript.js';
import { TranscriptError } from './TranscriptError.js';
import { toolLinkProblems } from './toolLinkProblems.js';
import type { TranscriptFormat } from './types.js';

const FIXTURES: Readonly<Record<string, TranscriptFormat>> = {
  'dense-session.jsonl': 'dense-session',
  'claude-code-session.jsonl': 'claude-code',
  'codex-rollout.jsonl': 'codex',
  'gemini-recording.json': 'gemini-cli-recording',
  'gemini-content.json': 'gemini-cli-content',
  'gemini-share.md.txt': 'gemini-cli-markdown',
  'openhands-events.json': 'openhands-events',
  'openhands-output.jsonl': 'openhands-output',
  'swe-agent-windowed.traj': 'swe-agent',
  'swe-agent-function-calling.traj': 'swe-agent',
  'mini-swe-agent.traj.json': 'mini-swe-agent',
};

const fixtureDir = fileURLToPath(new URL('./fixtures/', import.meta.url));
let dir = '';

/** Every fixture copied under a name that says nothing about its format. */
const disguised = (name: string): string => path.join(dir, `${name.replace(/\W/g, '_')}.log`);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'dense-transcripts-'));
  for (const name of Object.keys(FIXTURES))
    await copyFile(path.join(fixtureDir, name), disguised(name));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function write(name: string, text: string): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, text);
  return file;
}

describe('detectTranscriptFormat', () => {
  it.each(Object.entries(FIXTURES))('recognises %s by its content', async (name, format) => {
    await expect(detectTranscriptFormat(disguised(name))).resolves.toBe(format);
  });

  it('recognises a one-line JSON document and a first JSONL line longer than the sniffed head', async () => {
    const long = 'x'.repeat(100_000);
    const traj = await write(
      'one-line.json',
      JSON.stringify({ history: [{ role: 'user', content: long }], trajectory: [] }),
    );
    await expect(detectTranscriptFormat(traj)).resolves.toBe('swe-agent');
    const jsonl = await write(
      'long-line.jsonl',
      `${JSON.stringify({ type: 'user', sessionId: 's', uuid: 'u', message: { role: 'user', content: long } })}\n`,
    );
    await expect(detectTranscriptFormat(jsonl)).resolves.toBe('claude-code');
  });

  it('names the file when the format is unknown', async () => {
    const file = await write('notes.txt', 'just some notes\n');
    await expect(detectTranscriptFormat(file)).rejects.toMatchObject({
      code: 'TRANSCRIPT_UNKNOWN_FORMAT',
      file,
      message: expect.stringContaining(file) as unknown,
    });
  });

  it('#12.9 valid JSON Lines of an unknown format are reported as an unknown format, not invalid JSON', async () => {
    const file = await write('other.jsonl', '{"a":1}\n{"b":2}\n');
    await expect(detectTranscriptFormat(file)).rejects.toMatchObject({
      code: 'TRANSCRIPT_UNKNOWN_FORMAT',
      message: expect.stringContaining('not a transcript format') as unknown,
    });
  });

  it('#32.1 reads a pretty-printed document whose inner lines are whole objects as one document', async () => {
    const recording = {
      sessionId: 's',
      projectHash: 'h',
      startTime: '2030-01-01T00:00:00Z',
      messages: [{ id: '1', type: 'user', content: 'hi' }],
    };
    const text = JSON.stringify(recording, null, 2).replace(
      /\{\n\s+"id": "1",\n\s+"type": "user",\n\s+"content": "hi"\n\s+\}/,
      '{"id":"1","type":"user","content":"hi"}',
    );
    expect(text.split('\n')).toContain('    {"id":"1","type":"user","content":"hi"}');
    const file = await write('pretty.json', text);
    await expect(detectTranscriptFormat(file)).resolves.toBe('gemini-cli-recording');
  });

  it('names the line of a JSON syntax error', async () => {
    const file = await write('broken.json', '{\n  "messages": [\n    oops\n  ]\n}\n');
    const error = await detectTranscriptFormat(file).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TranscriptError);
    expect(error).toMatchObject({ code: 'TRANSCRIPT_INVALID_JSON', location: { line: 3 } });
    expect((error as Error).message).toContain(`${file}:3`);
  });

  it('classifies nothing from values of no known shape', () => {
    expect(classifyJsonValue({ hello: 'world' })).toBeUndefined();
    expect(classifyJsonValue([])).toBeUndefined();
    expect(classifyJsonValue(42)).toBeUndefined();
  });
});

describe('importTranscriptSessions', () => {
  it.each(Object.entries(FIXTURES))('imports %s with linked tool calls', async (name, format) => {
    const sessions = await importTranscriptSessions(disguised(name));
    for (const session of sessions) {
      expect(session.format).toBe(format);
      expect(session.contents.length).toBeGreaterThan(0);
      expect(toolLinkProblems(session.contents)).toEqual([]);
    }
  });

  it('returns every session of a multi-session file and puts bad lines on the first', async () => {
    const sessions = await importTranscriptSessions(disguised('openhands-output.jsonl'));
    expect(sessions.map((s) => s.sessionIndex)).toEqual([0, 1]);
    expect(sessions[0]?.skipped.map((s) => s.line)).toEqual([3, 4]);
  });

  it('reads a file as the format it is told', async () => {
    const [session] = await importTranscriptSessions(disguised('codex-rollout.jsonl'), {
      format: 'codex',
    });
    expect(session?.format).toBe('codex');
  });

  it('fails with the first skipped line when nothing is usable', async () => {
    const file = await write(
      'garbage.jsonl',
      `${JSON.stringify({ type: 'user', sessionId: 's', uuid: 'u' })}\n{bad\n`,
    );
    await expect(importTranscriptSessions(file)).rejects.toMatchObject({
      code: 'TRANSCRIPT_EMPTY',
      location: { line: 1 },
      message: expect.stringContaining(`${file}:1: user line without message.content`) as unknown,
    });
  });

  it('fails with TRANSCRIPT_IO for a missing file', async () => {
    const file = path.join(dir, 'missing.jsonl');
    await expect(importTranscriptSessions(file)).rejects.toMatchObject({
      code: 'TRANSCRIPT_IO',
      file,
    });
  });

  it('fails with a structure error naming the JSON path', async () => {
    await expect(
      importTranscriptSessions(disguised('gemini-content.json'), { format: 'mini-swe-agent' }),
    ).rejects.toMatchObject({
      code: 'TRANSCRIPT_INVALID_STRUCTURE',
      location: { path: '$.messages' },
    });
  });

  it('writes nothing, not even next to the input', async () => {
    const before = await Promise.all(
      (await readdir(dir)).map(async (name) => [name, (await stat(path.join(dir, name))).mtimeMs]),
    );
    for (const name of Object.keys(FIXTURES)) await importTranscriptSessions(disguised(name));
    const after = await Promise.all(
      (await readdir(dir)).map(async (name) => [name, (await stat(path.join(dir, name))).mtimeMs]),
    );
    expect(after).toEqual(before);
  });
});

describe('importTranscript', () => {
  it('returns the one session of a single-session file', async () => {
    const session = await importTranscript(disguised('claude-code-session.jsonl'));
    expect(session.sessionId).toBe('cc-session-1');
  });

  it('asks which session of a multi-session file, and serves the one asked for', async () => {
    const file = disguised('openhands-output.jsonl');
    await expect(importTranscript(file)).rejects.toMatchObject({
      code: 'TRANSCRIPT_MULTIPLE_SESSIONS',
    });
    await expect(importTranscript(file, { session: 1 })).resolves.toMatchObject({
      sessionId: 'demo__app-2',
    });
    await expect(importTranscript(file, { session: 5 })).rejects.toMatchObject({
      code: 'TRANSCRIPT_MULTIPLE_SESSIONS',
    });
  });
});
