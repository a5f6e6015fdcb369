import { describe, expect, it } from 'vitest';
import { buildSummaryEntries, buildSummaryRequest } from '../core/compression/summaryRequest.js';
import { collectReplyText } from '../core/compression/generateSummary.js';
import { MiddleOutStrategy } from '../core/compression/MiddleOutStrategy.js';
import { STATE_SNAPSHOT_SECTIONS } from '../core/prompts.js';
import { getText, type IContent } from '../services/history/IContent.js';
import { ai, human, toolRoundTrip } from '../test-utils/historyBuilders.js';
import { makeCompressionContext } from '../test-utils/compressionContext.js';
import { buildOfflineSnapshot } from './offlineSnapshot.js';
import { OfflineSummaryProvider } from './OfflineSummaryProvider.js';

const history: IContent[] = [
  human('Fix the median of an even number of values.\nIt returns 3 for 1, 2, 3, 4.'),
  ...toolRoundTrip('c1', 'read_file', { file_path: 'src/stats.js' }, 'export function median() {}'),
  ...toolRoundTrip(
    'c2',
    'run_shell_command',
    { command: 'node test/run.js' },
    '',
    'SHELL_EXIT_NONZERO: Command exited with code 1.\nFAIL stats',
  ),
  ...toolRoundTrip(
    'c3',
    'replace',
    { file_path: 'src/stats.js', old_string: 'a', new_string: 'b' },
    'ok',
  ),
  ai('Fixed.'),
  human('Now add a changelog entry.'),
  ...toolRoundTrip('c4', 'write_file', { file_path: 'CHANGELOG.md', content: '# Changelog' }, 'ok'),
];

async function summarize(entries: readonly IContent[]): Promise<string> {
  const summarizer = new OfflineSummaryProvider();
  const request = buildSummaryRequest({ compressionPrompt: 'Summarize.', entries });
  return collectReplyText(summarizer.generate(request));
}

function section(snapshot: string, tag: string): string {
  return new RegExp(`<${tag}>\\n([\\s\\S]*?)\\n</${tag}>`).exec(snapshot)?.[1] ?? '';
}

describe('the offline summarizer', () => {
  it('writes one <state_snapshot> with every section the compression prompt asks for', async () => {
    const snapshot = await summarize(history);
    expect(snapshot.startsWith('<state_snapshot>')).toBe(true);
    expect(snapshot.endsWith('</state_snapshot>')).toBe(true);
    for (const tag of STATE_SNAPSHOT_SECTIONS) {
      expect(snapshot).toContain(`<${tag}>`);
      expect(section(snapshot, tag)).not.toBe('');
    }
  });

  it('takes the goal from the first request and marks the last request in progress', async () => {
    const snapshot = await summarize(history);
    expect(section(snapshot, 'overall_goal')).toBe('Fix the median of an even number of values.');
    expect(section(snapshot, 'current_plan')).toBe(
      '- [DONE] Fix the median of an even number of values.\n- [IN PROGRESS] Now add a changelog entry.',
    );
  });

  it('records the files read, modified and written, the commands run and the failures', async () => {
    const snapshot = await summarize(history);
    expect(section(snapshot, 'file_system_state')).toBe(
      '- src/stats.js: modified (replace)\n- CHANGELOG.md: written (write_file)',
    );
    expect(section(snapshot, 'key_knowledge')).toBe('- Ran `node test/run.js`');
    expect(section(snapshot, 'errors_encountered')).toBe(
      '- run_shell_command failed: SHELL_EXIT_NONZERO: Command exited with code 1.',
    );
    expect(section(snapshot, 'recent_actions')).toContain(
      '- run_shell_command node test/run.js (failed)',
    );
  });

  it('folds an earlier snapshot in: its goal, files, plan and errors survive a second compression', async () => {
    const first = await summarize(history);
    const [summaryEntry, ack] = buildSummaryEntries(first);
    const second = await summarize([
      summaryEntry,
      ack,
      human('Bump the version.'),
      ...toolRoundTrip(
        'c5',
        'replace',
        { file_path: 'package.json', old_string: 'x', new_string: 'y' },
        'ok',
      ),
    ]);
    expect(section(second, 'overall_goal')).toBe('Fix the median of an even number of values.');
    expect(section(second, 'file_system_state')).toContain('- CHANGELOG.md: written (write_file)');
    expect(section(second, 'file_system_state')).toContain('- package.json: modified (replace)');
    expect(section(second, 'current_plan')).toContain('- [DONE] Now add a changelog entry.');
    expect(section(second, 'current_plan')).toContain('- [IN PROGRESS] Bump the version.');
    expect(section(second, 'errors_encountered')).toContain('SHELL_EXIT_NONZERO');
  });

  it('is deterministic and counts its calls', async () => {
    const summarizer = new OfflineSummaryProvider();
    const request = buildSummaryRequest({ compressionPrompt: 'Summarize.', entries: history });
    const a = await collectReplyText(summarizer.generate(request));
    const b = await collectReplyText(summarizer.generate(request));
    expect(a).toBe(b);
    expect(summarizer.summaries).toBe(2);
  });

  it('says "None." for sections it has nothing for, and never throws on odd input', () => {
    const snapshot = buildOfflineSnapshot(
      'no history at all → Tool call broken (id x) with parameters: {',
    );
    expect(section(snapshot, 'errors_encountered')).toBe('None.');
    expect(section(snapshot, 'overall_goal')).toBe('None.');
  });

  it('serves as the summarizer of the real middle-out strategy', async () => {
    const summarizer = new OfflineSummaryProvider();
    const long = Array.from({ length: 6 }, (_, r) => [
      human(`request ${r}`),
      ...toolRoundTrip(`r${r}`, 'read_file', { file_path: `src/f${r}.js` }, `content ${r}`),
      ai(`answer ${r}`),
    ]).flat();
    const context = await makeCompressionContext({
      history: long,
      resolveProvider: () => summarizer,
    });
    const result = await new MiddleOutStrategy().compress(context);
    expect(result.kind).toBe('applied');
    if (result.kind !== 'applied') return;
    const summary = result.newHistory.find((entry) => entry.metadata?.isSummary === true);
    expect(summary && getText(summary)).toContain('<overall_goal>');
    expect(summarizer.summaries).toBe(1);
  });
});
