import { describe, expect, it } from 'vitest';
import { ai, human, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import { compactionSummary } from './compactionSummary.js';
import { REPORTS_HEADING, subagentReports } from './subagentReports.js';

function report(topic: string, lines: number): string {
  return Array.from(
    { length: lines },
    (_, i) => `- ${topic} finding ${i + 1}: see server/routes/${topic}${i}.js`,
  ).join('\n');
}

function delegated(id: string, description: string, text: string) {
  return toolRoundTrip(id, 'Agent', { description, prompt: 'Survey it.' }, text);
}

describe('subagentReports', () => {
  it('#33.3 a subagent report the compaction removes stays as text, with its recall id', () => {
    const removed = [
      human('Map the backend.'),
      ...delegated('a1', 'Backend survey', report('backend', 20)),
      ai('Surveyed.'),
    ];
    const { text: section, shownWhole } = subagentReports(removed, 4_000);
    expect(section.startsWith(REPORTS_HEADING)).toBe(true);
    expect([...shownWhole]).toEqual(['a1']);
    expect(section).toContain('[Backend survey; recall id r');
    expect(section).toContain('see server/routes/backend19.js');
  });

  it('#33.3 newest first within the room: an older report is cut to its head or left to its line', () => {
    const removed = [
      ...delegated('a1', 'Old survey', report('old', 40)),
      ...delegated('a2', 'New survey', report('new', 40)),
    ];
    const newest = report('new', 40);
    const { text: section, shownWhole } = subagentReports(removed, newest.length + 1_200);
    expect([...shownWhole]).toEqual(['a2']);
    expect(section).toContain(newest);
    expect(section).toContain('[Old survey; recall id');
    expect(section).toContain('[… the rest: `dense recall r');
    expect(section).not.toContain('see server/routes/old39.js');
    expect(section.length).toBeLessThanOrEqual(newest.length + 1_200);
    expect(subagentReports(removed, 200).text).toBe('');
  });

  it('#33.3 other tools, failed subagents and short notices are not reports', () => {
    const removed = [
      ...toolRoundTrip('c1', 'run_shell_command', { command: 'ls' }, report('ls', 40)),
      ...toolRoundTrip('a1', 'Agent', { description: 'x' }, report('failed', 40), 'Agent failed'),
      ...delegated('a2', 'Background survey', 'Started in the background; output_file: /tmp/a2'),
      ai('Listed.'),
    ];
    expect(subagentReports(removed, 8_000).text).toBe('');
  });

  it('#33.3 the working-budget summary carries the report where its turn line alone would not', () => {
    const removed = [
      human('Map the backend.'),
      ...delegated('a1', 'Backend survey', report('backend', 30)),
      ...Array.from({ length: 60 }, (_, i) =>
        toolRoundTrip(`c${i}`, 'run_shell_command', { command: `step ${i}` }, `ok ${i}`),
      ).flat(),
      ai('Done.'),
    ];
    const { text } = compactionSummary({
      removed,
      history: removed,
      removedRaw: JSON.stringify(removed),
      budgetChars: 8_000,
      purpose: 'working-budget',
    });
    expect(text).toContain(REPORTS_HEADING);
    expect(text).toContain('see server/routes/backend29.js');
    expect(text.length).toBeLessThanOrEqual(8_000 + 200);
  });

  it('#33.3 a report shown whole is not repeated as specifics on its turn line', () => {
    const removed = [
      human('Map the backend.'),
      ...delegated('a1', 'Backend survey', report('backend', 30)),
      ai('Surveyed.'),
    ];
    const { text } = compactionSummary({
      removed,
      history: removed,
      removedRaw: JSON.stringify(removed),
      budgetChars: 8_000,
      purpose: 'working-budget',
    });
    const turnLine = text.split('\n').find((line) => line.startsWith('[Agent')) ?? '';
    expect(turnLine).toContain('recall id r');
    expect(turnLine).not.toContain('server/routes/backend');
    expect(text.split('server/routes/backend29.js')).toHaveLength(2);
  });
});
