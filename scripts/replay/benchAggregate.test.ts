import type { ReplaySessionReport } from '@dense/core';
import { describe, expect, it } from 'vitest';
import { sessionName } from './benchAggregate.js';
import type { BenchRun } from './benchTypes.js';

/** Only the fields `sessionName` reads; the rest of a run does not matter here. */
function run(file: string, sessionIndex: number): BenchRun {
  const report = { file, sessionIndex } as unknown as ReplaySessionReport;
  return { source: 'claude-code-x', report } as unknown as BenchRun;
}

describe('bench: session names in the docs', () => {
  it('#23.7 names a session by its source and a short hash, quoting no transcript file name', () => {
    const name = sessionName(run('raw/claude-code-x/alice__shop-app__1234.chat.json', 0));
    expect(name).toMatch(/^claude-code-x [0-9a-f]{6}$/);
    expect(name).not.toContain('alice');
  });

  it('#23.7 keeps the name stable per file and session, and apart between sessions of one file', () => {
    const file = 'raw/claude-code-x/log.jsonl';
    // sha256('log.jsonl#1'), first six hex digits: the name depends on the file's base name and index.
    expect(sessionName(run(file, 1))).toBe('claude-code-x 10bce3');
    expect(sessionName(run(file, 1))).not.toBe(sessionName(run(file, 2)));
  });
});
