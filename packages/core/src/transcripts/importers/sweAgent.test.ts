import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ToolCallBlock, ToolResponseBlock } from '../../services/history/IContent.js';
import { checkImport } from '../checkImport.js';
import { mapSweCommand, parseSweAction } from '../sweAgentCommands.js';
import { toolLinkProblems } from '../toolLinkProblems.js';
import { importSweAgent, splitThoughtAction } from './sweAgent.js';

const load = (name: string) =>
  importSweAgent(
    JSON.parse(
      readFileSync(fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url)), 'utf8'),
    ),
    {
      file: name,
    },
  );
const calls = (session: ReturnType<typeof load>) =>
  session.contents
    .flatMap((e) => e.blocks)
    .filter((b): b is ToolCallBlock => b.type === 'tool_call');
const responses = (session: ReturnType<typeof load>) =>
  session.contents
    .flatMap((e) => e.blocks)
    .filter((b): b is ToolResponseBlock => b.type === 'tool_response');

describe('importSweAgent (0.x windowed editor)', () => {
  const session = load('swe-agent-windowed.traj');

  it('maps editor commands onto the open file and others to the shell, one call per step', () => {
    expect(calls(session).map((c) => [c.id, c.name, c.description, c.parameters])).toEqual([
      ['swe-step-0', 'read_file', 'open', { file_path: '/repo/src/calc.py' }],
      ['swe-step-1', 'read_file', 'goto', { file_path: '/repo/src/calc.py', offset: 2 }],
      [
        'swe-step-2',
        'replace',
        'edit_lines',
        {
          file_path: '/repo/src/calc.py',
          start_line: 2,
          end_line: 2,
          new_string: '    return a + b)',
        },
      ],
      [
        'swe-step-3',
        'replace',
        'edit_lines',
        {
          file_path: '/repo/src/calc.py',
          start_line: 2,
          end_line: 2,
          new_string: '    return a + b',
        },
      ],
      [
        'swe-step-4',
        'write_file',
        'create',
        { file_path: '/repo/tests/test_calc.py', content: '' },
      ],
      ['swe-step-5', 'run_shell_command', 'bash', { command: 'python -m pytest -q' }],
      ['swe-step-6', 'run_shell_command', 'bash', { command: 'submit' }],
    ]);
  });

  it('keeps the thought as text and links each observation to its step', () => {
    expect(session.contents[2]?.blocks[0]).toEqual({
      type: 'text',
      text: 'DISCUSSION\nLet me open the module.',
    });
    expect(toolLinkProblems(session.contents)).toEqual([]);
    expect(session.stats.unansweredCalls).toBe(1);
  });

  it('marks the edit the linter rejected as failed and the retried one as applied', () => {
    const byId = new Map(responses(session).map((r) => [r.callId, r]));
    expect(byId.get('swe-step-2')?.error).toMatch(
      /^Your proposed edit has introduced new syntax error/,
    );
    expect(byId.get('swe-step-3')?.error).toBeUndefined();
    expect(session.stats).toMatchObject({ writes: 3, failedWrites: 1 });
  });

  it('keeps demonstrations as human text, ignores the system prompt, reads the working directory', () => {
    expect(session.contents[0]?.metadata).toEqual({ demonstration: true });
    expect(session.ignored).toEqual({ 'system prompt': 1 });
    expect(session.workspaceRoot).toBe('/repo');
  });
});

describe('importSweAgent (1.x function calling)', () => {
  const session = load('swe-agent-function-calling.traj');

  it('uses the recorded call ids and maps str_replace_editor, knowing what a view showed', () => {
    expect(calls(session).map((c) => [c.id, c.name])).toEqual([
      ['call_v1', 'list_directory'],
      ['call_v2', 'read_line_range'],
      ['call_b1', 'run_shell_command'],
      ['call_e1', 'replace'],
      ['call_e2', 'replace'],
    ]);
    expect(toolLinkProblems(session.contents)).toEqual([]);
  });

  it('keeps "No replacement was performed" as an error and reports an orphan observation', () => {
    expect(responses(session).find((r) => r.callId === 'call_e1')?.error).toMatch(
      /^No replacement was performed/,
    );
    expect(session.stats.failedWrites).toBe(1);
    expect(session.skipped).toEqual([
      {
        path: '$.history[11]',
        reason: "observation for unknown tool call 'call_nope'",
        kind: 'orphan-result',
      },
    ]);
  });
});

describe('SWE-agent commands', () => {
  it.each([
    ['open "src/a b.py" 40', { name: 'open', args: { path: 'src/a b.py', line_number: '40' } }],
    ['goto 12', { name: 'goto', args: { line_number: '12' } }],
    [
      'edit 3:5\nnew text\nend_of_edit',
      { name: 'edit_lines', args: { start: 3, end: 5, replacement: 'new text' } },
    ],
    ["edit 'old' 'new'", { name: 'edit', args: { search: 'old', replace: 'new' } }],
    ["insert 'line' 7", { name: 'insert', args: { text: 'line', line: '7' } }],
    ['create t.py', { name: 'create', args: { filename: 't.py' } }],
    [
      'str_replace_editor view /a.py --view_range 1 9',
      { name: 'str_replace_editor', args: { command: 'view', path: '/a.py', view_range: [1, 9] } },
    ],
    ['ls -la', { name: 'bash', args: { command: 'ls -la' } }],
  ])('parses %j', (action, expected) => {
    expect(parseSweAction(action)).toEqual(expected);
  });

  it('deletes lines for an empty line-range edit and needs an open file for editor commands', () => {
    const state = { openFile: '/r/a.py', cwd: '/r' };
    expect(mapSweCommand(parseSweAction('edit 2:4\nend_of_edit'), state).call).toEqual({
      name: 'delete_line_range',
      parameters: { file_path: '/r/a.py', start_line: 2, end_line: 4 },
    });
    expect(mapSweCommand(parseSweAction('goto 3'), {}, 'No file open.', 'goto 3').call).toEqual({
      name: 'run_shell_command',
      parameters: { command: 'goto 3' },
    });
  });

  it('keeps the open file when a command fails', () => {
    const mapped = mapSweCommand(
      parseSweAction('open b.py'),
      { openFile: '/r/a.py', cwd: '/r' },
      'File b.py not found',
    );
    expect(mapped.openFile).toBe('/r/a.py');
  });

  it('splits the thought from the last fenced action', () => {
    expect(splitThoughtAction('think\n```\nls\n```')).toEqual({ thought: 'think', action: 'ls' });
    expect(splitThoughtAction('no action')).toEqual({ thought: 'no action', action: '' });
  });
});

describe('importSweAgent: the calls the file holds', () => {
  it("#22.17 counts the main agent's replies and their calls, windowed or function calling", () => {
    expect(load('swe-agent-windowed.traj').recorded).toEqual({ modelCalls: 7, toolCalls: 7 });
    expect(load('swe-agent-function-calling.traj').recorded).toEqual({
      modelCalls: 4,
      toolCalls: 5,
    });
  });

  it('#22.17 flags calls the mapping could not read (tool_calls of an unknown shape)', () => {
    const history = [
      { role: 'system', content: 'You are an agent.' },
      { role: 'user', content: 'Fix the parser.' },
      ...[1, 2, 3].map((step) => ({
        role: 'assistant',
        content: `Step ${step}.`,
        tool_calls: [`bash -c "ls src/${step}"`],
      })),
    ];
    const session = importSweAgent({ history, trajectory: [] }, { file: 'odd.traj' });
    expect(session.stats).toMatchObject({ aiEntries: 3, toolCalls: 0 });
    expect(session.recorded).toEqual({ modelCalls: 3, toolCalls: 3 });
    expect(checkImport(session)).toMatchObject({ kind: 'calls-missing' });
  });
});
