import { describe, expect, it } from 'vitest';
import { computeSessionStats } from './sessionStats.js';
import { checkImport, describeImportCheck } from './checkImport.js';
import type { RecordedCalls, SessionStats } from './types.js';

function stats(aiEntries: number, toolCalls: number): SessionStats {
  return { ...computeSessionStats([]), aiEntries, toolCalls };
}

function session(aiEntries: number, toolCalls: number, recorded?: RecordedCalls) {
  return { stats: stats(aiEntries, toolCalls), ...(recorded ? { recorded } : {}) };
}

describe('checkImport', () => {
  it('#22.17 flags a session with no model call, with or without recorded counts', () => {
    expect(checkImport(session(0, 0))).toMatchObject({ kind: 'no-model-calls' });
    const check = checkImport(session(0, 0, { modelCalls: 16, toolCalls: 15 }));
    expect(check.kind).toBe('no-model-calls');
    expect(describeImportCheck(check)).toMatch(/0 of 16 model calls and 0 of 15 tool calls/);
  });

  it('#22.17 flags far fewer calls than the file holds (a lost main chain)', () => {
    const check = checkImport(session(1, 0, { modelCalls: 250, toolCalls: 425 }));
    expect(check).toEqual({
      kind: 'calls-missing',
      imported: { modelCalls: 1, toolCalls: 0 },
      recorded: { modelCalls: 250, toolCalls: 425 },
    });
    expect(describeImportCheck(check)).toMatch(/only 1 of 250 model calls and 0 of 425 tool/);
    expect(checkImport(session(90, 10, { modelCalls: 90, toolCalls: 90 })).kind).toBe(
      'calls-missing',
    );
  });

  it('#22.17 passes a full import, small losses and importers that do not count', () => {
    expect(checkImport(session(90, 90, { modelCalls: 90, toolCalls: 90 }))).toEqual({
      kind: 'ok',
    });
    expect(checkImport(session(90, 80, { modelCalls: 90, toolCalls: 90 })).kind).toBe('ok');
    expect(checkImport(session(3, 0, { modelCalls: 3, toolCalls: 0 })).kind).toBe('ok');
    expect(checkImport(session(3, 2)).kind).toBe('ok');
    expect(describeImportCheck({ kind: 'ok' })).toBeUndefined();
  });
});

describe('checkImport: nothing silently dropped', () => {
  const ok = session(3, 1, { modelCalls: 3, toolCalls: 1 });
  const reply = (id: string) => ({ speaker: 'ai' as const, blocks: [], metadata: { id } });

  it('#32.3 flags a file whose records are mostly of an unknown type', () => {
    const check = checkImport({ ...ok, ignored: { 'unknown line type': 40, 'summary line': 2 } });
    expect(check).toMatchObject({ kind: 'unknown-records', count: 40 });
    expect(describeImportCheck(check)).toMatch(/40 of \d+ records/);
    expect(checkImport({ ...ok, ignored: { 'unknown line type': 1, 'summary line': 60 } })).toEqual(
      { kind: 'ok' },
    );
  });

  it('#32.3 flags tool results that answer no call', () => {
    const skipped = [
      {
        line: 4,
        reason: "tool_result for unknown tool_use id 't9'",
        kind: 'orphan-result' as const,
      },
    ];
    expect(checkImport({ ...ok, skipped })).toEqual({ kind: 'results-without-calls', count: 1 });
    expect(checkImport({ ...ok, skipped: [{ line: 2, reason: 'invalid JSON (x)' }] })).toEqual({
      kind: 'ok',
    });
  });

  it('#32.3 flags a reply imported twice (copied history)', () => {
    const contents = [reply('m1'), reply('m2'), reply('m1')];
    const check = checkImport({ ...ok, contents });
    expect(check).toEqual({ kind: 'duplicate-history', count: 1 });
    expect(describeImportCheck(check)).toMatch(/more than once/);
    expect(checkImport({ ...ok, contents: [reply('m1'), reply('m2')] })).toEqual({ kind: 'ok' });
  });
});
