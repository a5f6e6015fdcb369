import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ai, human, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import { workingBudgetSummary } from '../test-utils/workingBudgetSummary.js';
import { REPORTS_HEADING, reportRooms, subagentReports } from './subagentReports.js';
import { RECURRING_HEADING } from './recurringNames.js';

function report(topic: string, lines: number): string {
  return Array.from(
    { length: lines },
    (_, i) => `- ${topic} finding ${i + 1}: see server/routes/${topic}${i}.js`,
  ).join('\n');
}

/** The user asks for a survey; one subagent reports `lines` findings; the agent goes on. */
function backendSurvey(lines: number) {
  return [
    human('Map the backend.'),
    ...delegated('a1', 'Backend survey', report('backend', lines)),
    ai('Surveyed.'),
  ];
}

function delegated(id: string, description: string, text: string) {
  return toolRoundTrip(id, 'Agent', { description, prompt: 'Survey it.' }, text);
}

describe('subagentReports', () => {
  it('#33.3 a subagent report the compaction removes stays as text, with its recall id', () => {
    const removed = backendSurvey(20);
    const { text: section, reported } = subagentReports(removed, 4_000);
    expect(section.startsWith(REPORTS_HEADING)).toBe(true);
    expect([...reported]).toEqual(['a1']);
    expect(section).toContain('[Backend survey; recall id r');
    expect(section).toContain('see server/routes/backend19.js');
  });

  it('#33.3 reports share the room: each cut to its head and the names, paths and numbers of its rest', () => {
    const removed = [
      ...delegated('a1', 'Old survey', report('old', 40)),
      ...delegated('a2', 'New survey', report('new', 40)),
    ];
    const room = 3_200;
    expect(report('new', 40).length * 2).toBeGreaterThan(room);
    const { text: section, reported } = subagentReports(removed, room);
    expect([...reported].sort()).toEqual(['a1', 'a2']);
    expect(section.indexOf('[New survey; recall id')).toBeLessThan(
      section.indexOf('[Old survey; recall id'),
    );
    for (const topic of ['old', 'new']) {
      expect(section).toContain(`${topic} finding 1:`);
      expect(section).toContain(`server/routes/${topic}39.js`);
    }
    expect(section.match(/\[… the rest: `dense recall r[0-9a-f]+`; it names /g)).toHaveLength(2);
    expect(section.length).toBeLessThanOrEqual(room);
    expect(subagentReports(removed, 200).text).toBe('');
  });

  it('#33.3 a cut report names first what the agent mentioned after it', () => {
    const survey = Array.from({ length: 200 }, (_, i) => `- helper_${i} calls helper_${i}`).join(
      '\n',
    );
    const text = `${survey}\n- the rare_column_name is set once`;
    const removed = delegated('a1', 'Survey', text);
    const later = (token: string) => token === 'rare_column_name';
    const { text: plain } = subagentReports(removed, 1_600);
    const { text: ranked } = subagentReports(removed, 1_600, { mentioned: later });
    expect(plain).not.toContain('rare_column_name');
    expect(ranked).toContain('it names rare_column_name');
  });

  it('#33.3 the room goes evenly to the newest reports, a short one leaving its rest to the others', () => {
    expect(reportRooms([1_000, 9_000, 9_000], 12_000)).toEqual([1_000, 5_500, 5_500]);
    expect(reportRooms([9_000, 9_000, 9_000], 4_000)).toEqual([2_000, 2_000, 0]);
    expect(reportRooms([300, 400], 10_000)).toEqual([300, 400]);
    // Equal needs: the newer one never gets the smaller share of an odd room.
    expect(reportRooms([5_000, 5_000], 3_001)).toEqual([1_501, 1_500]);
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 50_000 }), { maxLength: 12 }),
        fc.integer({ min: -2_000, max: 60_000 }),
        (needs, room) => {
          const rooms = reportRooms(needs, room);
          rooms.forEach((given) => expect(given).toBeGreaterThanOrEqual(0));
          expect(rooms.reduce((sum, r) => sum + r, 0)).toBeLessThanOrEqual(Math.max(0, room));
          rooms.forEach((given, i) => expect(given).toBeLessThanOrEqual(needs[i] as number));
          // A newer report never gets less than an older one that needs as much.
          rooms.forEach((given, i) =>
            rooms.slice(i + 1).forEach((older, j) => {
              if ((needs[i + 1 + j] as number) <= (needs[i] as number))
                expect(older).toBeLessThanOrEqual(given);
            }),
          );
        },
      ),
    );
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
    const text = workingBudgetSummary(removed, 8_000).text;
    expect(text).toContain(REPORTS_HEADING);
    expect(text).toContain('see server/routes/backend29.js');
    expect(text.length).toBeLessThanOrEqual(8_000 + 200);
  });

  it('#33.3 a report shown whole is not repeated as specifics on its turn line', () => {
    const removed = backendSurvey(30);
    const text = workingBudgetSummary(removed, 8_000).text;
    const turnLine = text.split('\n').find((line) => line.startsWith('[Agent')) ?? '';
    expect(turnLine).toContain('recall id r');
    expect(turnLine).not.toContain('server/routes/backend');
    expect(text.split('server/routes/backend29.js')).toHaveLength(2);
  });

  it('#33.3 a report the section cuts to its head and names is not repeated as specifics on its turn line', () => {
    const removed = backendSurvey(2_000);
    const text = workingBudgetSummary(removed, 30_000).text;
    expect(text).toContain('[… the rest: `dense recall r');
    const turnLine = text.split('\n').find((line) => line.startsWith('[Agent')) ?? '';
    expect(turnLine).toContain('recall id r');
    expect(turnLine).not.toContain('server/routes/backend');
  });

  it('#33.3 the summary names first what the agent used of a cut report later in the conversation', () => {
    const names = Array.from({ length: 400 }, (_, i) => `- helper_${i} calls helper_${i}`);
    const survey = [...names, '- the rare_column_name is set once'].join('\n');
    const removed = [human('Map the backend.'), ...delegated('a1', 'Survey', survey), ai('Ok.')];
    const summaryOf = (history: typeof removed) =>
      workingBudgetSummary(removed, 6_000, history).text;
    expect(summaryOf(removed)).not.toContain('rare_column_name');
    expect(summaryOf([...removed, ai('Now set rare_column_name in the seed.')])).toContain(
      'it names rare_column_name',
    );
  });

  it('#33.3 reports an earlier Dense summary showed (an answer the client kept) are carried by the next one', () => {
    const first = backendSurvey(30);
    const answer = workingBudgetSummary(first, 8_000).text;
    const reportId = /\[Backend survey; recall id (r[0-9a-f]{10})\]/.exec(answer)?.[1];
    expect(reportId).toBeDefined();
    const later = [
      human(answer),
      ...Array.from({ length: 30 }, (_, i) =>
        toolRoundTrip(`c${i}`, 'run_shell_command', { command: `step ${i}` }, `ok ${i}`),
      ).flat(),
      ai('Done.'),
    ];
    const text = workingBudgetSummary(later, 8_000).text;
    const section = text.slice(
      text.indexOf(REPORTS_HEADING),
      text.indexOf('\n\nThe compacted turns'),
    );
    expect(section).toContain(`[Backend survey; recall id ${reportId}]`);
    expect(section).toContain('see server/routes/backend29.js');
    // The report alone: not the earlier summary's turns after it.
    expect(section).not.toContain('User: [message');
  });

  it('#33.3 a carried report ends where the names beside the earlier summary begin', () => {
    const first = backendSurvey(30);
    const reports = subagentReports(first, 8_000).text;
    const answer = `[Dense summarized the 3 messages of this conversation so far]\n\n${reports}\n\n${RECURRING_HEADING}\nbe_ledger_totals`;
    const later = [human(answer), ...delegated('a2', 'Tiny', 'x'.repeat(1_200)), ai('Done.')];
    const section = subagentReports(later, 20_000).text;
    expect(section).toContain('see server/routes/backend29.js');
    expect(section).not.toContain(RECURRING_HEADING);
  });

  it('#33.3 a carried report ends where the reply wrapping the earlier summary ends', () => {
    const first = backendSurvey(30);
    // Reports are the summary's last section here (no turns' lines, no listings).
    const reports = subagentReports(first, 8_000).text;
    const answer = `<analysis>\nDense answered.\n</analysis>\n\n<summary>\n[Dense summarized the 3 messages of this conversation so far]\n\n${reports}\n</summary>\n\nContinue from where you left off.`;
    const later = [human(answer), ...delegated('a2', 'Tiny', 'x'.repeat(1_200)), ai('Done.')];
    const section = subagentReports(later, 20_000).text;
    expect(section).toContain('see server/routes/backend29.js');
    expect(section).not.toContain('</summary>');
    expect(section).not.toContain('Continue from where you left off.');
  });
});
