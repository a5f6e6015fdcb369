import { describe, expect, it } from 'vitest';
import { human, readFile, toolCall, toolResult, ai } from '../test-utils/historyBuilders.js';
import { buildSummaryRequest } from '../core/compression/summaryRequest.js';
import { collectReplyText } from '../core/compression/generateSummary.js';
import {
  OfflineSummaryProvider,
  offlineSummary,
  OFFLINE_SUMMARY_MAX_LINES,
} from './OfflineSummaryProvider.js';

describe('OfflineSummaryProvider', () => {
  it('summarizes a real summary request: first user lines and each call with its target', async () => {
    const request = buildSummaryRequest({
      compressionPrompt: 'ignored',
      entries: [
        human('Fix the parser\nIt drops the last line.'),
        ...readFile('r1', 'src/parse.ts', 'export {}'),
        toolCall({
          id: 's1',
          name: 'run_shell_command',
          parameters: { command: 'npm test\n# then lint' },
        }),
        toolResult({ id: 's1', name: 'run_shell_command', result: 'ok' }),
        ai('Fixed.'),
        human('Now the docs'),
      ],
    });
    const provider = new OfflineSummaryProvider();
    const text = await collectReplyText(provider.generate(request));
    expect(provider.summaries).toBe(1);
    expect(text).toBe(
      [
        '<state_snapshot>',
        '<overall_goal>Fix the parser</overall_goal>',
        '<task_context>None.</task_context>',
        '<user_directives>\n- Fix the parser\n- Now the docs\n</user_directives>',
        '<key_knowledge>None.</key_knowledge>',
        '<errors_encountered>None.</errors_encountered>',
        '<file_system_state>None.</file_system_state>',
        '<code_references>None.</code_references>',
        '<recent_actions>\n- read_file src/parse.ts\n- run_shell_command npm test\n</recent_actions>',
        '<current_plan>None.</current_plan>',
        '</state_snapshot>',
      ].join('\n'),
    );
  });

  it('finds the target in parameters the request elided, and keeps the newest lines', () => {
    const calls = Array.from(
      { length: OFFLINE_SUMMARY_MAX_LINES + 5 },
      (_, i) =>
        `→ Tool call read_file (id c${i}) with parameters: {"file_path":"f${i}.ts","x":"[… 9 characters omitted …]`,
    );
    const summary = offlineSummary(['[Assistant]', ...calls].join('\n'));
    expect(summary).toContain('- read_file f5.ts\n');
    expect(summary).not.toContain('- read_file f4.ts\n');
    expect(summary).toContain('<overall_goal>None.</overall_goal>');
  });
});
