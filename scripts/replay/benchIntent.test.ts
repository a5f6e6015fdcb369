import { describe, expect, it } from 'vitest';
import { intentSection } from './benchIntent.js';
import { syntheticRun } from './test-utils/benchRun.js';

const counts = (messages: number, lost: number) => ({
  calls: 4,
  callsWithAll: lost === 0 ? 4 : 2,
  messages,
  verbatim: messages - lost,
  cut: 0,
  lost,
  callsWithTasks: 4,
  tasksVisible: lost === 0 ? 4 : 1,
  callsWithFailure: lost === 0 ? 0 : 2,
  failureVisible: 0,
});

describe('bench: the intent section', () => {
  it('#33.5 reports each policy that ran, and names the sessions where recorded or high-density lost a user message', () => {
    const runs = [
      syntheticRun('recorded', null, { intent: counts(10, 3) }),
      syntheticRun('high-density', 128_000, { intent: counts(10, 0), file: 'synthetic/b.jsonl' }),
      syntheticRun('high-density', 32_000, { intent: counts(10, 5), file: 'synthetic/c.jsonl' }),
    ];
    const section = intentSection(runs);
    expect(section).toContain(
      '| `recorded` | 4 | 50.0% | 10 | 70.0% | 0 | 3 (30.0%) | 25.0% | 0.0% |',
    );
    // No failure before any call: nothing to judge.
    expect(section).toContain(
      '| `high-density` | 4 | 100.0% | 10 | 100.0% | 0 | 0 (0.0%) | 100.0% | – |',
    );
    expect(section).toContain('| task list visible | latest failure visible |');
    const losses = section
      .slice(section.indexOf('Sessions that lost'))
      .split('\n')
      .filter((line) => line.startsWith('| synthetic'));
    expect(losses).toHaveLength(1);
    expect(losses[0]).toContain('`recorded`');
    expect(section).not.toContain('`one-shot`');
  });
});
