import { describe, expect, it } from 'vitest';
import type { SideIntentReport } from './SideIntent.js';
import { intentOverall, intentTable, sessionLabel, type IntentRow } from './intentReport.js';

/**
 * A side that judged `messages` user messages over `calls` calls and lost `lost` of them; the
 * client held a task list at every call, all visible unless it lost a message; two calls came
 * after a failure, one showing it unless it lost a message.
 */
const side = (calls: number, messages: number, lost: number): SideIntentReport => ({
  calls,
  callsWithAll: lost === 0 ? calls : calls - 1,
  messages,
  verbatim: messages - lost,
  cut: 0,
  lost,
  callsWithTasks: calls,
  tasksVisible: lost === 0 ? calls : 0,
  callsWithFailure: 2,
  failureVisible: lost === 0 ? 1 : 0,
  callsOnSyntheticSummary: 0,
});

const rows: IntentRow[] = [
  {
    file: 'private-project-name.jsonl',
    source: 'claude-code-native-2026',
    intent: { passThrough: side(10, 40, 20), proxy: side(10, 40, 0) },
  },
  {
    file: 'another-user.jsonl#1',
    source: 'claude-code-native-2026',
    intent: { passThrough: side(5, 10, 0), proxy: side(5, 10, 2) },
  },
  {
    file: 'rollout.jsonl',
    source: 'codex-cli-rollouts-2026',
    intent: { passThrough: side(4, 8, 4), proxy: side(4, 8, 0) },
  },
];

describe('bench:proxy intent report', () => {
  it('#33.5 per session, per source and overall, sessions named by source and a short hash', () => {
    const total = intentOverall(rows);
    expect(total.passThrough).toMatchObject({ calls: 19, messages: 58, verbatim: 34, lost: 24 });
    expect(total.proxy).toMatchObject({ messages: 58, verbatim: 56, lost: 2 });
    expect(total.bySource.map((source) => [source.source, source.sessions])).toEqual([
      ['claude-code-native-2026', 2],
      ['codex-cli-rollouts-2026', 1],
    ]);
    expect(total.bySource[0]?.passThrough).toMatchObject({ messages: 50, lost: 20 });
    const below = sessionLabel('another-user.jsonl#1', 'claude-code-native-2026');
    expect(total.belowPassThrough).toEqual([below]);

    const table = intentTable(rows, total);
    expect(table).not.toMatch(/private-project-name|another-user|rollout\.jsonl/);
    expect(table).toMatch(
      /\| claude-code-native-2026 [0-9a-f]{6} \| 10 \| 40 \| 50\.0% \/ 100\.0% \|/,
    );
    expect(table).toContain(
      '| **codex-cli-rollouts-2026** (1 sessions) | 4 | 8 | 50.0% / 100.0% |',
    );
    expect(table).toContain('| **all 3 sessions** | 19 | 58 | 58.6% / 96.6% | 0 / 0 | 24 / 2 |');
    expect(table).toContain(
      '| task list visible (pass / proxy) | latest failure visible (pass / proxy) |',
    );
    // Task lists: pass-through showed them at 5 of 19 calls, the proxy at 14 (the sessions where
    // it lost nothing); the failure at 1 and 2 of 6.
    expect(table).toContain('| 24 / 2 | 89.5% / 94.7% | 26.3% / 73.7% | 16.7% / 33.3% | 0 / 0 |');
    expect(table).toContain(`fewer user messages verbatim than pass-through: ${below}`);
  });

  it('#33.5 a file\'s first session is named as bench:replay names it (no "#0")', () => {
    expect(sessionLabel('a.jsonl#0', 's')).toBe(sessionLabel('a.jsonl', 's'));
    expect(sessionLabel('a.jsonl#1', 's')).not.toBe(sessionLabel('a.jsonl', 's'));
  });
});
