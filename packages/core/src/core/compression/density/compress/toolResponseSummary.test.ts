import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatFileInclusions, PRUNED_POINTER } from '../../densityVocabulary.js';
import {
  toolCallBlock,
  toolResponseBlock,
  type ToolCallBlock,
  type ToolResponseBlock,
} from '../../../../services/history/IContent.js';
import {
  FAILED_SUMMARY_MAX_CHARS,
  isCompactSummary,
  readSummaryLine,
  SUMMARY_MAX_CHARS,
  summarizeToolResponse,
} from './toolResponseSummary.js';

const ROOT = '/workspace';
const lines = (n: number) => Array.from({ length: n }, (_, i) => `line ${i}`).join('\n');

function summary(name: string, parameters: unknown, result: unknown, error?: string): string {
  const call: ToolCallBlock = toolCallBlock('c', name, parameters);
  const response = toolResponseBlock({
    callId: 'c',
    toolName: name,
    result,
    ...(error === undefined ? {} : { error }),
  });
  return summarizeToolResponse(response, call, ROOT);
}

const shellOutput = (output: string, exit: number) =>
  `Command: npm test\nDirectory: (root)\nOutput: ${output}\nError: (none)\nExit Code: ${exit}\nSignal: (none)\nBackground PIDs: (none)\nProcess Group PGID: 123`;

describe('one-line tool summaries', () => {
  it('REQ-HD-008.3 read_file: relative path, outcome and line count', () => {
    expect(summary('read_file', { file_path: '/workspace/src/index.ts' }, lines(245))).toBe(
      '[read_file src/index.ts — success, 245 lines]',
    );
    expect(summary('read_file', { absolute_path: 'src/one.ts' }, 'only line\n')).toBe(
      '[read_file src/one.ts — success, 1 line]',
    );
  });

  it('REQ-HD-008.3 keeps absolute paths outside the workspace absolute', () => {
    expect(summary('read_file', { file_path: '/etc/hosts' }, 'x')).toBe(
      '[read_file /etc/hosts — success, 1 line]',
    );
  });

  it('REQ-HD-008.3 read error: outcome carries the first line of the error', () => {
    expect(summary('read_file', { file_path: 'a.ts' }, '', 'File not found: a.ts\nstack…')).toBe(
      '[read_file a.ts — error: File not found: a.ts stack…, 0 lines]',
    );
  });

  it('REQ-HD-008.3 shell: command, exit code and the telling line of output', () => {
    expect(
      summary(
        'run_shell_command',
        { command: 'npm test' },
        shellOutput('FAIL a.test.ts\n3 failed, 10 passed\nDone in 2s', 1),
      ),
    ).toBe(
      '[run_shell_command npm test — error: exit 1, first error: FAIL a.test.ts, "3 failed, 10 passed"]',
    );
    expect(
      summary('run_shell_command', { command: 'npm run build' }, shellOutput('built in 2s', 0)),
    ).toBe('[run_shell_command npm run build — success, "built in 2s"]');
    expect(summary('run_shell_command', { command: 'true' }, shellOutput('(empty)', 0))).toBe(
      '[run_shell_command true — success, no output]',
    );
  });

  it('#22.6 a density reply is summarized from the tool output it stands for, not from the reply', () => {
    const call = toolCallBlock('c', 'run_shell_command', { command: 'npm test' });
    const marker = '[same output as call b — that copy is still above]';
    const reply = (field: 'result' | 'error'): ToolResponseBlock => ({
      ...toolResponseBlock({
        callId: 'c',
        toolName: 'run_shell_command',
        result: field === 'result' ? marker : '',
        ...(field === 'error' ? { error: marker } : {}),
      }),
      original:
        field === 'result'
          ? shellOutput('FAIL a.test.ts\n3 failed, 10 passed', 1)
          : 'ENOENT: no such file',
    });
    expect(summarizeToolResponse(reply('result'), call, ROOT)).toBe(
      '[run_shell_command npm test — error: exit 1, first error: FAIL a.test.ts, "3 failed, 10 passed"]',
    );
    expect(summarizeToolResponse(reply('error'), call, ROOT)).toContain(
      'error: ENOENT: no such file',
    );
  });

  it('REQ-HD-008.3 search: quoted pattern and the number of matches', () => {
    expect(summary('grep', { pattern: 'TODO' }, 'Found 12 matches for pattern "TODO"\n…')).toBe(
      '[grep "TODO" — success, 12 matches]',
    );
    expect(summary('search_file_content', { pattern: 'x', path: 'src' }, 'No matches found')).toBe(
      '[search_file_content "x" in src — success, 0 matches]',
    );
    expect(
      summary('glob', { pattern: '**/*.ts' }, 'Found 3 file(s) matching "**/*.ts"\na\nb\nc'),
    ).toBe('[glob "**/*.ts" — success, 3 files]');
  });

  it('REQ-HD-008.3 writes: path, outcome and lines written', () => {
    expect(
      summary('replace', { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' }, 'ok'),
    ).toBe('[replace src/a.ts — success]');
    expect(summary('write_file', { file_path: 'src/new.ts', content: lines(12) }, 'ok')).toBe(
      '[write_file src/new.ts — success, 12 lines written]',
    );
    expect(summary('replace', { file_path: 'src/a.ts' }, '', 'old_string not found')).toBe(
      '[replace src/a.ts — error: old_string not found]',
    );
  });

  it('REQ-HD-008.3 read_many_files: the paths and how many files came back', () => {
    const result = formatFileInclusions([
      { path: 'a.ts', content: 'A' },
      { path: 'b.ts', content: 'B' },
    ]);
    expect(summary('read_many_files', { paths: ['a.ts', 'b.ts'] }, result)).toBe(
      '[read_many_files a.ts, b.ts — success, 2 files]',
    );
    expect(summary('read_many_files', { paths: ['a', 'b', 'c', 'd', 'src/*.ts'] }, '')).toBe(
      '[read_many_files a, b, c (+2 more) — success, 0 lines]',
    );
  });

  it('REQ-HD-008.3 other tools: first known key parameter and a short fact', () => {
    expect(summary('web_fetch', { url: 'https://example.com' }, 'page text')).toBe(
      '[web_fetch https://example.com — success, "page text"]',
    );
    expect(summary('list_directory', { path: 'src' }, 'a.ts\nb.ts')).toBe(
      '[list_directory src — success, 2 lines]',
    );
    expect(summary('mystery', null, { output: 'x\ny' })).toBe('[mystery — success, 2 lines]');
    expect(summary('mystery', 'not an object', undefined)).toBe('[mystery — success]');
  });

  it('REQ-HD-013.5 malformed call parameters give a summary without a subject, never a throw', () => {
    for (const params of [null, 42, 'x', [], { file_path: 42 }, { command: 7 }]) {
      expect(summary('read_file', params, 'x')).toBe('[read_file — success, 1 line]');
    }
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(summary('mystery', {}, circular)).toBe('[mystery — success]');
  });

  it('without the call, still names the tool from the response', () => {
    const response = toolResponseBlock({ callId: 'x', toolName: 'read_file', result: 'a\nb' });
    expect(summarizeToolResponse(response, undefined, ROOT)).toBe('[read_file — success, 2 lines]');
  });

  it('is always one line no longer than the cap, whatever the inputs', () => {
    const long = 'x'.repeat(5000);
    const text = summary(
      'run_shell_command',
      { command: `${long}\nrm -rf /` },
      `${long}\n${long}\nExit Code: 2`,
      long,
    );
    expect(text.length).toBeLessThanOrEqual(SUMMARY_MAX_CHARS);
    expect(text).not.toContain('\n');
    expect(text.endsWith(']')).toBe(true);
    expect(summary('read_file', { file_path: `a\nb/${long}` }, 'x')).not.toContain('\n');
  });

  it('#33.3 a failed run quotes the first line that names its error, whole, however long the command', () => {
    const errorLine = `TypeError: Cannot read properties of undefined (reading 'ledger') at ${'x/'.repeat(20)}total.ts:41:7`;
    const output = shellOutput(
      [
        '> jest',
        'PASS a.test.ts',
        errorLine,
        ...Array.from({ length: 30 }, (_, i) => `  at frame ${i}`),
        'Tests: 1 failed, 12 passed',
      ].join('\n'),
      1,
    );
    const line = summarizeToolResponse(
      toolResponseBlock({ callId: 'c1', toolName: 'run_shell_command', result: output }),
      toolCallBlock('c1', 'run_shell_command', { command: `npm test -- ${'--flag '.repeat(12)}` }),
      ROOT,
      'r0123456789',
    );
    expect(line).toContain(`first error: ${errorLine}`);
    expect(line).toContain('recall id r0123456789');
    expect(line.length).toBeLessThanOrEqual(FAILED_SUMMARY_MAX_CHARS);
    expect(isCompactSummary(line)).toBe(true);
  });

  it('recognises compact one-liners (summaries, the pointer) and nothing else', () => {
    expect(isCompactSummary('[read_file a.ts — success, 1 line]')).toBe(true);
    expect(isCompactSummary(PRUNED_POINTER)).toBe(true);
    expect(isCompactSummary('[a]\n[b]')).toBe(false);
    expect(isCompactSummary(`[${'x'.repeat(FAILED_SUMMARY_MAX_CHARS)}]`)).toBe(false);
    expect(isCompactSummary('plain output')).toBe(false);
    expect(isCompactSummary({ output: '[x]' })).toBe(false);
  });

  it("#33.3 property: a shell run's line reads back as its command, exit status and recall id", () => {
    const command = fc.stringMatching(/^[a-z0-9][a-z0-9 ./_|&>-]{0,150}$/);
    const output = fc.array(fc.stringMatching(/^[A-Za-z0-9 :.,'"_-]{0,80}$/), { maxLength: 8 });
    fc.assert(
      fc.property(command, output, fc.integer({ min: 0, max: 255 }), (cmd, out, exit) => {
        const text = [...out, ...(exit === 0 ? [] : [`Exit code: ${exit}`])].join('\n');
        const line = summarizeToolResponse(
          toolResponseBlock({ callId: 'c1', toolName: 'run_shell_command', result: text }),
          toolCallBlock('c1', 'run_shell_command', { command: cmd }),
          ROOT,
          'r0123456789',
        );
        const facts = readSummaryLine(`${line} specifics after the line`);
        expect(facts?.toolName).toBe('run_shell_command');
        expect(facts?.status).toBe(exit === 0 ? 'ok' : `exit ${exit}`);
        expect(facts?.recallId).toBe('r0123456789');
        // The subject is the command as the line clips it.
        const subject = (facts?.subject ?? '').replace(/…$/, '');
        expect(subject.length).toBeGreaterThan(0);
        expect(cmd.replace(/\s+/g, ' ').trim().startsWith(subject)).toBe(true);
      }),
    );
    expect(readSummaryLine('[read_file a.ts — success, 1 line]')).toBeUndefined();
    expect(readSummaryLine('- `npm test` → ok; recall id r0123456789')).toBeUndefined();
  });
});
