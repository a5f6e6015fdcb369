import { describe, expect, it } from 'vitest';
import { runBench } from './benchFlags.js';
import {
  benchSessions,
  compactionCallsNote,
  NoSessionsError,
  requireSessions,
} from './benchSessions.js';

const found = {
  bench: 'bench:proxy',
  corpus: '/corpus',
  files: 3,
  failed: 1,
  compactionCalls: 2,
};

describe('the corpus benches: which sessions they replay', () => {
  it("#32.4 the client's own compaction calls are skipped and counted; sessions and subagents stay", () => {
    const sessions = [
      { file: 'a.jsonl' },
      { file: 'agent-acompact-1.jsonl', role: 'compaction-call' },
      { file: 'agent-x.jsonl', role: 'subagent' },
      { file: 'agent-acompact-2.jsonl', role: 'compaction-call' },
    ];
    const { sessions: kept, compactionCalls } = benchSessions(sessions);
    expect(kept.map((s) => s.file)).toEqual(['a.jsonl', 'agent-x.jsonl']);
    expect(compactionCalls).toBe(2);
    expect(compactionCallsNote('bench:replay', 2)).toContain('skipped 2 client compaction call(s)');
    expect(compactionCallsNote('bench:replay', 0)).toBe('');
  });

  it('#32.4 no session imported is an error with a clear message and exit code 1, not "100.0% over 0 sessions"', async () => {
    expect(() => requireSessions(0, { ...found, only: 'nothing' })).toThrow(NoSessionsError);
    expect(() => requireSessions(0, found)).toThrow(
      'bench:proxy: no session imported from /corpus: 3 file(s), 1 failed to import, 2 compaction call(s) skipped.',
    );
    expect(() => requireSessions(1, found)).not.toThrow();
    const exits: number[] = [];
    const errors: string[] = [];
    await runBench(
      () => {
        requireSessions(0, found);
        return Promise.resolve(0);
      },
      { exit: (code) => exits.push(code), error: (message) => errors.push(message) },
    );
    expect(exits).toEqual([1]);
    expect(errors[0]).toContain('no session imported');
  });
});
