/** Claude Code compact summaries keep the times the replay reads a compaction's wait from. */
import { describe, expect, it } from 'vitest';
import { importClaudeCodeRecords } from './claudeCode.js';
import { recordedCompactionWallMs } from '../../replay/recordedCompactions.js';

const record = (fields: Record<string, unknown>): Record<string, unknown> => ({
  isSidechain: false,
  sessionId: 's',
  ...fields,
});

const RECORDS = [
  record({
    type: 'user',
    timestamp: '2026-01-02T10:00:00.000Z',
    message: { role: 'user', content: 'go' },
  }),
  record({
    type: 'assistant',
    timestamp: '2026-01-02T10:00:05.000Z',
    message: { id: 'm1', role: 'assistant', model: 'x', content: [{ type: 'text', text: 'ok' }] },
  }),
  record({
    type: 'user',
    timestamp: '2026-01-02T10:01:00.000Z',
    message: { role: 'user', content: 'more' },
  }),
  record({ type: 'progress', timestamp: '2026-01-02T10:01:30.000Z' }),
  record({ type: 'system', subtype: 'compact_boundary', timestamp: '2026-01-02T10:02:10.000Z' }),
  record({
    type: 'user',
    isCompactSummary: true,
    version: '1.0.77',
    timestamp: '2026-01-02T10:02:10.004Z',
    message: { role: 'user', content: 'Summary of the earlier conversation.' },
  }),
];

describe('#25.5 recorded compaction times (Claude Code)', () => {
  it('#25.5 a compact summary carries its time and the time of the last message record before it', () => {
    const session = importClaudeCodeRecords(RECORDS, { file: 'chat.json' });
    const summary = session.contents.at(-1);
    expect(summary?.metadata).toMatchObject({
      isSummary: true,
      timestamp: Date.UTC(2026, 0, 2, 10, 2, 10, 4),
      compactionStartedAt: Date.UTC(2026, 0, 2, 10, 1, 0),
    });
    expect(summary && recordedCompactionWallMs(summary)).toBe(70_004);
  });

  it('#25.1 a compact summary carries the Claude Code version that wrote it', () => {
    const summary = importClaudeCodeRecords(RECORDS, { file: 'chat.json' }).contents.at(-1);
    expect(summary?.metadata?.agentVersion).toBe('1.0.77');
  });

  it('#25.5 no wait is made up where the transcript records no times', () => {
    const untimed = RECORDS.map(({ timestamp: _, ...rest }) => rest);
    const summary = importClaudeCodeRecords(untimed, { file: 'chat.json' }).contents.at(-1);
    expect(summary?.metadata?.isSummary).toBe(true);
    expect(summary && recordedCompactionWallMs(summary)).toBeUndefined();
  });
});
