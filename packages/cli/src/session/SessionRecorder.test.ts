import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createAiMessage,
  createUserMessage,
  parseSessionLine,
  TypedEmitter,
  type AgentSession,
  type CompressionHandlerEvents,
} from '@dense/core';
import { parseSessionRecording } from './loadSessionRecording.js';
import { SessionRecorder, type AppendText } from './SessionRecorder.js';

const header = {
  sessionId: '20261122-083000-abcdef',
  startedAt: '2026-11-22T08:30:00.000Z',
  workspaceRoot: '/ws',
  provider: 'openai',
  model: 'gpt-5.4',
};

function memoryFile(): { append: AppendText; text: () => string } {
  let text = '';
  return {
    append: (_file, chunk) => {
      text += chunk;
    },
    text: () => text,
  };
}

describe('SessionRecorder', () => {
  it('writes the header with the first entry, then one line per entry, in order', () => {
    const file = memoryFile();
    const recorder = new SessionRecorder({ file: '/s.jsonl', header, append: file.append });
    expect(recorder.hasFile).toBe(false);
    expect(file.text()).toBe('');
    recorder.record(createUserMessage('hi'));
    recorder.record(createAiMessage('hello'));
    recorder.recordEvent('compression', { tokensBefore: 10, tokensAfter: 5 });
    expect(recorder.hasFile).toBe(true);
    const lines = file.text().trimEnd().split('\n').map(parseSessionLine);
    expect(lines.map((l) => l.kind)).toEqual(['session', 'content', 'content', 'event']);
    const recording = parseSessionRecording(file.text(), '/s.jsonl');
    expect(recording.header).toEqual(header);
    expect(recording.contents).toEqual([createUserMessage('hi'), createAiMessage('hello')]);
  });

  it("#23.6 a density event keeps the recording's per-pass field names", () => {
    const file = memoryFile();
    const recorder = new SessionRecorder({ file: '/s.jsonl', header, append: file.append });
    const compression = { events: new TypedEmitter<CompressionHandlerEvents>() };
    const chat = { events: new TypedEmitter<Record<string, unknown>>() };
    recorder.attach({ chat, compression } as unknown as AgentSession);
    compression.events.emit('densityApplied', {
      strategy: 'high-density',
      metadata: { readWrite: 2, dedup: 1, recency: 0 },
      removedTokens: { readWrite: 40, dedup: 10, recency: 0 },
      tokensBefore: 100,
      tokensAfter: 50,
    } as CompressionHandlerEvents['densityApplied']);
    const event = JSON.parse(file.text().trimEnd().split('\n').at(-1) ?? '{}') as object;
    expect(event).toMatchObject({
      type: 'density',
      strategy: 'high-density',
      readWritePairsPruned: 2,
      fileDeduplicationsPruned: 1,
      recencyPruned: 0,
      tokensBefore: 100,
      tokensAfter: 50,
    });
  });

  it('a resumed recording only appends (no second header)', () => {
    const file = memoryFile();
    const recorder = new SessionRecorder({
      file: '/s.jsonl',
      header,
      append: file.append,
      prepareResumed: () => undefined,
      resumed: true,
    });
    recorder.record(createUserMessage('again'));
    expect(file.text().split('\n')[0]).toContain('"kind":"content"');
  });

  it('reports a write failure once and stops recording; the caller goes on', () => {
    const errors: string[] = [];
    let calls = 0;
    const recorder = new SessionRecorder({
      file: '/readonly/s.jsonl',
      header,
      append: () => {
        calls++;
        throw new Error('EACCES: permission denied');
      },
      onError: (message) => errors.push(message),
    });
    recorder.record(createUserMessage('one'));
    recorder.record(createUserMessage('two'));
    expect(errors).toEqual([
      'Could not record the session to /readonly/s.jsonl: EACCES: permission denied. The session goes on unrecorded.',
    ]);
    expect(calls).toBe(1);
    expect(recorder.hasFile).toBe(false);
  });

  it('reading back skips a torn last line and rejects a file without header', () => {
    const good = memoryFile();
    const recorder = new SessionRecorder({ file: '/s.jsonl', header, append: good.append });
    recorder.record(createUserMessage('kept'));
    const torn = `${good.text()}{"kind":"content","content":{"speak`;
    const recording = parseSessionRecording(torn, '/s.jsonl');
    expect(recording.contents).toHaveLength(1);
    expect(recording.skipped).toEqual([{ line: 3, reason: 'invalid JSON' }]);
    expect(() => parseSessionRecording('{"kind":"content"}\n', '/x.jsonl')).toThrow(
      /not a Dense session recording/,
    );
  });

  it('#12.4 a new recording is created readable by its owner only (0600, directory 0700)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dense-rec-'));
    try {
      const file = path.join(dir, 'sessions', 's.jsonl');
      new SessionRecorder({ file, header }).record(createUserMessage('hi'));
      expect(statSync(file).mode & 0o777).toBe(0o600);
      expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('#12.8 resuming after a torn last line starts the next line on its own line (and tightens 0644 to 0600)', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'dense-rec-'));
    try {
      const file = path.join(dir, 's.jsonl');
      const first = new SessionRecorder({ file, header });
      first.record(createUserMessage('one'));
      writeFileSync(file, readFileSync(file, 'utf8') + '{"kind":"content","tor', { mode: 0o644 });
      const resumed = new SessionRecorder({ file, header, resumed: true });
      resumed.recordEvent('resumed', { entries: 1 });
      resumed.record(createUserMessage('two'));
      const text = readFileSync(file, 'utf8');
      const lines = text.trimEnd().split('\n');
      expect(lines.at(-3)).toBe('{"kind":"content","tor');
      expect(parseSessionLine(lines.at(-2) ?? '')).toMatchObject({ kind: 'event' });
      const recording = parseSessionRecording(text, file);
      expect(recording.contents).toEqual([createUserMessage('one'), createUserMessage('two')]);
      expect(recording.skipped).toHaveLength(1);
      expect(statSync(file).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
