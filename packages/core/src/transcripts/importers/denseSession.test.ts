import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { readFileLines } from '../lineSource.js';
import { checkImport } from '../checkImport.js';
import { serializeSessionContent, serializeSessionHeader } from '../sessionFormat.js';
import { TranscriptError } from '../TranscriptError.js';
import { importDenseSession } from './denseSession.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/dense-session.jsonl', import.meta.url));

describe('importDenseSession', () => {
  it('takes content lines as recorded, skips events and reports bad lines', async () => {
    const session = await importDenseSession(readFileLines(FIXTURE), { file: FIXTURE });
    expect(session).toMatchObject({
      sessionId: 'dense-1',
      workspaceRoot: '/home/dev/app',
      model: 'test-model',
    });
    expect(session.contents.map((e) => e.speaker)).toEqual(['human', 'ai', 'tool', 'ai']);
    expect(session.ignored).toEqual({ 'event line': 1 });
    expect(session.skipped.map((s) => s.line)).toEqual([6, 7]);
  });

  it('round-trips what the serializers write', async () => {
    const entries = [
      { speaker: 'human' as const, blocks: [{ type: 'text' as const, text: 'hi' }] },
      {
        speaker: 'ai' as const,
        blocks: [{ type: 'text' as const, text: '   ' }],
        metadata: { model: 'm' },
      },
    ];
    const lines = [
      serializeSessionHeader({
        sessionId: 'x',
        startedAt: 't',
        workspaceRoot: '/w',
        provider: 'p',
        model: 'm',
      }),
      ...entries.map(serializeSessionContent),
    ].map((line) => line.trimEnd());
    const session = await importDenseSession(lines, { file: 'x.jsonl' });
    expect(session.contents).toEqual(entries);
  });

  it('refuses a header version it does not know', async () => {
    const line = JSON.stringify({
      kind: 'session',
      version: 2,
      sessionId: 'x',
      startedAt: 't',
      workspaceRoot: '/',
      provider: 'p',
      model: 'm',
    });
    await expect(importDenseSession([line], { file: 'v2.jsonl' })).rejects.toMatchObject({
      code: 'TRANSCRIPT_UNSUPPORTED_VERSION',
      location: { line: 1 },
    });
    await expect(importDenseSession([line], { file: 'v2.jsonl' })).rejects.toBeInstanceOf(
      TranscriptError,
    );
  });
});

describe('importDenseSession: the calls the file holds', () => {
  it('#22.17 counts model entries and their calls, bad lines included', async () => {
    const session = await importDenseSession(readFileLines(FIXTURE), { file: FIXTURE });
    expect(session.recorded).toEqual({ modelCalls: 2, toolCalls: 1 });
  });

  it('#22.17 each line is parsed once: the call count and the entry come from the same JSON', async () => {
    const lines = [
      JSON.stringify({
        kind: 'content',
        content: { speaker: 'human', blocks: [{ type: 'text', text: 'Go.' }] },
      }),
      JSON.stringify({
        kind: 'content',
        content: {
          speaker: 'ai',
          blocks: [{ type: 'tool_call', id: 'c1', name: 'read_file', parameters: {} }],
        },
      }),
      'not json',
    ];
    const parse = vi.spyOn(JSON, 'parse');
    try {
      const session = await importDenseSession(lines, { file: 'once.jsonl' });
      expect(parse).toHaveBeenCalledTimes(lines.length);
      expect(session.recorded).toEqual({ modelCalls: 1, toolCalls: 1 });
      expect(session.skipped.map((s) => s.line)).toEqual([3]);
    } finally {
      parse.mockRestore();
    }
  });

  it('#22.17 flags model entries the mapping rejected (a block type it does not know)', async () => {
    const ai = (id: string, type: string): string =>
      JSON.stringify({
        kind: 'content',
        content: {
          speaker: 'ai',
          blocks: [{ type, id, name: 'read_file', parameters: { file_path: `${id}.ts` } }],
        },
      });
    const lines = [
      JSON.stringify({
        kind: 'content',
        content: { speaker: 'human', blocks: [{ type: 'text', text: 'Go.' }] },
      }),
      JSON.stringify({
        kind: 'content',
        content: { speaker: 'ai', blocks: [{ type: 'text', text: 'Reading.' }] },
      }),
      ai('c1', 'tool_call_v2'),
      ai('c2', 'tool_call_v2'),
    ];
    const session = await importDenseSession(lines, { file: 'odd.jsonl' });
    expect(session.stats).toMatchObject({ aiEntries: 1, toolCalls: 0 });
    expect(session.recorded).toEqual({ modelCalls: 3, toolCalls: 0 });
    expect(checkImport(session)).toMatchObject({ kind: 'calls-missing' });
  });
});
