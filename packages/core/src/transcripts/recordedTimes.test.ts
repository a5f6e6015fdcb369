/** #14.1: importers keep each AI entry's recorded time, which the replay prices cache gaps with. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { IContent } from '../services/history/IContent.js';
import { importClaudeCode } from './importers/claudeCode.js';
import { importCodexRollout } from './importers/codexRollout.js';
import { importGeminiRecording } from './importers/geminiRecording.js';
import { importOpenHandsEvents } from './importers/openHands.js';
import { recordedTime } from './jsonValues.js';
import { readFileLines } from './lineSource.js';

const fixture = (name: string): string =>
  fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
const aiTimes = (contents: readonly IContent[]) =>
  contents.filter((entry) => entry.speaker === 'ai').map((entry) => entry.metadata?.timestamp);

describe('#14.1 recorded times', () => {
  it('recordedTime reads ISO times, a time without a zone as UTC, and nothing else', () => {
    expect(recordedTime('2026-01-02T10:00:00.000Z')).toBe(Date.UTC(2026, 0, 2, 10));
    expect(recordedTime('2025-01-27T22:44:56.900854')).toBe(Date.UTC(2025, 0, 27, 22, 44, 56, 900));
    expect(recordedTime('2026-01-02T12:00:00+02:00')).toBe(Date.UTC(2026, 0, 2, 10));
    for (const bad of [undefined, 17, '', 'yesterday', '2026-13-45T99:00:00Z']) {
      expect(recordedTime(bad)).toBeUndefined();
    }
  });

  it('Codex: each AI entry carries the time of its last recorded line', async () => {
    const lines = [
      { timestamp: '2026-01-02T10:00:00Z', type: 'session_meta', payload: { id: 's', cwd: '/w' } },
      {
        timestamp: '2026-01-02T10:00:01Z',
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      },
      {
        timestamp: '2026-01-02T10:00:05Z',
        type: 'response_item',
        payload: {
          type: 'function_call',
          name: 'shell',
          call_id: 'c1',
          arguments: '{"command":["ls"]}',
        },
      },
      {
        timestamp: '2026-01-02T10:00:06Z',
        type: 'response_item',
        payload: { type: 'function_call_output', call_id: 'c1', output: 'a.txt' },
      },
      {
        timestamp: '2026-01-02T10:09:00Z',
        type: 'response_item',
        payload: {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'done' }],
        },
      },
    ].map((line) => JSON.stringify(line));
    const session = await importCodexRollout(lines, { file: 'rollout.jsonl' });
    expect(aiTimes(session.contents)).toEqual([
      Date.UTC(2026, 0, 2, 10, 0, 5),
      Date.UTC(2026, 0, 2, 10, 9, 0),
    ]);
  });

  it('gemini-cli recording: each gemini message keeps its timestamp', () => {
    const document: unknown = JSON.parse(readFileSync(fixture('gemini-recording.json'), 'utf8'));
    const session = importGeminiRecording(document, { file: 'rec.json' });
    expect(aiTimes(session.contents)).toEqual([
      Date.UTC(2026, 0, 2, 10, 0, 1),
      Date.UTC(2026, 0, 2, 10, 0, 6),
    ]);
  });

  it('OpenHands: agent actions keep their (zone-less, UTC) timestamps', () => {
    const events: unknown = JSON.parse(readFileSync(fixture('openhands-events.json'), 'utf8'));
    const session = importOpenHandsEvents(events, { file: 'events.json' });
    const times = aiTimes(session.contents);
    expect(times.length).toBeGreaterThan(0);
    for (const time of times) expect(time).toBeGreaterThanOrEqual(Date.UTC(2026, 0, 2, 10, 0, 3));
    expect(times.at(-1)).toBe(Date.UTC(2026, 0, 2, 10, 0, 12));
  });

  it('Claude Code: assistant entries carry their record time', async () => {
    const session = await importClaudeCode(readFileLines(fixture('claude-code-session.jsonl')), {
      file: 'cc.jsonl',
    });
    const times = aiTimes(session.contents);
    expect(times.length).toBeGreaterThan(0);
    expect(times.every((time) => typeof time === 'number')).toBe(true);
  });
});
