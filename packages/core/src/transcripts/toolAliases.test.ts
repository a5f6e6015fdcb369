import { describe, expect, it } from 'vitest';
import { READ_TOOLS, WRITE_TOOLS } from '../core/compression/densityVocabulary.js';
import { hasToolAlias, mapStrReplaceEditor, mapToolCall, renameParams } from './toolAliases.js';
import { TOOL_ALIASES } from './toolAliasTable.js';

describe('mapToolCall', () => {
  it.each([
    [
      'claude-code',
      'Read',
      { file_path: '/a.ts', offset: 10, limit: 5 },
      'read_file',
      { file_path: '/a.ts', offset: 10, limit: 5 },
    ],
    [
      'claude-code',
      'Write',
      { file_path: '/a.ts', content: 'x' },
      'write_file',
      { file_path: '/a.ts', content: 'x' },
    ],
    [
      'claude-code',
      'Edit',
      { file_path: '/a.ts', old_string: 'a', new_string: 'b', replace_all: true },
      'replace',
      { file_path: '/a.ts', old_string: 'a', new_string: 'b', replace_all: true },
    ],
    [
      'claude-code',
      'MultiEdit',
      {
        file_path: '/a.ts',
        edits: [
          { old_string: 'a', new_string: 'b' },
          { old_string: 'c', new_string: 'd' },
        ],
      },
      'replace',
      { file_path: '/a.ts', old_string: 'a\nc', new_string: 'b\nd' },
    ],
    [
      'claude-code',
      'Bash',
      { command: 'ls', description: 'List', timeout: 5000 },
      'run_shell_command',
      { command: 'ls', description: 'List', timeout_ms: 5000 },
    ],
    [
      'claude-code',
      'Grep',
      { pattern: 'x', glob: '*.ts' },
      'grep',
      { pattern: 'x', include: '*.ts' },
    ],
    ['claude-code', 'Glob', { pattern: '**/*.ts' }, 'glob', { pattern: '**/*.ts' }],
    ['claude-code', 'LS', { path: '/src' }, 'list_directory', { path: '/src' }],
    ['gemini-cli', 'read_file', { absolute_path: '/a.md' }, 'read_file', { file_path: '/a.md' }],
    [
      'gemini-cli',
      'read_file',
      { file_path: 'a.md', start_line: 2, end_line: 9 },
      'read_line_range',
      { file_path: 'a.md', start_line: 2, end_line: 9 },
    ],
    ['gemini-cli', 'list_directory', { dir_path: 'src' }, 'list_directory', { path: 'src' }],
    [
      'gemini-cli',
      'grep_search',
      { pattern: 'x', dir_path: 'src' },
      'grep',
      { pattern: 'x', path: 'src' },
    ],
    [
      'gemini-cli',
      'run_shell_command',
      { command: 'ls', directory: 'src' },
      'run_shell_command',
      { command: 'ls', cwd: 'src' },
    ],
    [
      'codex',
      'exec_command',
      { cmd: 'ls', workdir: '/w' },
      'run_shell_command',
      { command: 'ls', cwd: '/w' },
    ],
    [
      'openhands',
      'execute_bash',
      { command: 'ls', is_input: 'false' },
      'run_shell_command',
      { command: 'ls', is_input: 'false' },
    ],
    [
      'openhands',
      'edit_file',
      { path: '/a.py', content: 'x', start: 1, end: 2 },
      'replace',
      { file_path: '/a.py', new_string: 'x', start_line: 1, end_line: 2 },
    ],
    ['swe-agent', 'bash', { command: 'ls' }, 'run_shell_command', { command: 'ls' }],
  ] as const)('%s %s → %s', (agent, name, parameters, canonical, expected) => {
    expect(mapToolCall(agent, name, parameters)).toEqual({ name: canonical, parameters: expected });
  });

  it.each([
    [
      'read_file',
      { file_path: '/a.ts', offset: 10, limit: 5 },
      'read_file',
      { file_path: '/a.ts', offset: 10, limit: 5 },
    ],
    ['read_file', { absolute_path: '/a.ts' }, 'read_file', { file_path: '/a.ts' }],
    [
      'write_file',
      { file_path: '/a.ts', content: 'x' },
      'write_file',
      { file_path: '/a.ts', content: 'x' },
    ],
    [
      'edit',
      { file_path: '/a.ts', old_string: 'a', new_string: 'b', replace_all: true },
      'replace',
      { file_path: '/a.ts', old_string: 'a', new_string: 'b', replace_all: true },
    ],
    [
      'notebook_edit',
      { notebook_path: '/n.ipynb', cell_id: 'c', new_source: 'x' },
      'replace',
      { file_path: '/n.ipynb', cell_id: 'c', new_string: 'x' },
    ],
    [
      'run_shell_command',
      { command: 'ls', directory: 'src' },
      'run_shell_command',
      { command: 'ls', cwd: 'src' },
    ],
    [
      'grep_search',
      { pattern: 'x', glob: '*.ts', path: 'src' },
      'grep',
      { pattern: 'x', include: '*.ts', path: 'src' },
    ],
    ['glob', { pattern: '**/*.ts' }, 'glob', { pattern: '**/*.ts' }],
  ] as const)(
    "#24.3 Qwen Code's %s (%j) maps to the canonical tool",
    (name, parameters, canonical, expected) => {
      expect(hasToolAlias('qwen-code', name)).toBe(true);
      expect(mapToolCall('qwen-code', name, parameters)).toEqual({
        name: canonical,
        parameters: expected,
      });
    },
  );

  it('keeps unknown tools and non-object parameters as recorded', () => {
    expect(mapToolCall('claude-code', 'WebFetch', { url: 'u' })).toEqual({
      name: 'WebFetch',
      parameters: { url: 'u' },
    });
    expect(mapToolCall('claude-code', 'Read', '{"file_path":')).toEqual({
      name: 'Read',
      parameters: '{"file_path":',
    });
  });
});

describe('mapStrReplaceEditor', () => {
  it.each([
    [{ command: 'view', path: '/a.py' }, {}, 'read_file', { file_path: '/a.py' }],
    [
      { command: 'view', path: '/a.py', view_range: [3, 9] },
      {},
      'read_line_range',
      { file_path: '/a.py', start_line: 3, end_line: 9 },
    ],
    [{ command: 'view', path: '/src' }, { isDirectory: true }, 'list_directory', { path: '/src' }],
    [
      { command: 'create', path: '/a.py', file_text: 'x' },
      {},
      'write_file',
      { file_path: '/a.py', content: 'x' },
    ],
    [
      { command: 'str_replace', path: '/a.py', old_str: 'a', new_str: 'b' },
      {},
      'replace',
      { file_path: '/a.py', old_string: 'a', new_string: 'b' },
    ],
    [
      { command: 'insert', path: '/a.py', insert_line: 4, new_str: 'x' },
      {},
      'insert_at_line',
      { file_path: '/a.py', line: 4, content: 'x' },
    ],
    [{ command: 'undo_edit', path: '/a.py' }, {}, 'write_file', { file_path: '/a.py' }],
  ])('%j → %s', (params, hints, name, parameters) => {
    expect(mapStrReplaceEditor(params, hints)).toEqual({ name, parameters });
  });

  it('keeps an unknown command as a str_replace_editor call', () => {
    expect(mapStrReplaceEditor({ command: 'explode' }, {}).name).toBe('str_replace_editor');
  });
});

describe('renameParams', () => {
  it('prefers a key already under its canonical name over an alias', () => {
    expect(renameParams({ path: 'alias', file_path: 'real' }, { path: 'file_path' })).toEqual({
      file_path: 'real',
    });
  });
});

describe('TOOL_ALIASES', () => {
  const known = new Set<string>([
    ...READ_TOOLS,
    ...WRITE_TOOLS,
    'run_shell_command',
    'glob',
    'grep',
    'list_directory',
    'todo_write',
    'delete_file',
  ]);

  it('names only canonical tools our vocabulary knows', () => {
    for (const alias of TOOL_ALIASES) {
      for (const name of alias.canonical.split(' / ')) {
        if (name.startsWith('(')) continue;
        expect(known.has(name), `${alias.agent} ${alias.original} → ${name}`).toBe(true);
      }
    }
  });
});
