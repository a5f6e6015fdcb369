/**
 * The tool alias table as people read it: each agent's tool, the canonical tool it maps to and
 * how its parameters change. docs/transcripts.md shows it; a test keeps it true to `mapToolCall`.
 */
import type { SourceAgent } from './toolAliases.js';

export interface ToolAlias {
  readonly agent: SourceAgent;
  readonly original: string;
  readonly canonical: string;
  readonly note: string;
}

/** Every alias, for docs/transcripts.md and for tests that keep the docs honest. */
export const TOOL_ALIASES: readonly ToolAlias[] = [
  {
    agent: 'gemini-cli',
    original: 'read_file',
    canonical: 'read_file',
    note: 'absolute_path/path → file_path; start_line/end_line → read_line_range',
  },
  {
    agent: 'gemini-cli',
    original: 'write_file',
    canonical: 'write_file',
    note: 'absolute_path/path → file_path',
  },
  {
    agent: 'gemini-cli',
    original: 'replace',
    canonical: 'replace',
    note: 'absolute_path/path → file_path',
  },
  {
    agent: 'gemini-cli',
    original: 'run_shell_command',
    canonical: 'run_shell_command',
    note: 'directory/dir_path → cwd',
  },
  {
    agent: 'gemini-cli',
    original: 'list_directory',
    canonical: 'list_directory',
    note: 'dir_path → path',
  },
  { agent: 'gemini-cli', original: 'glob', canonical: 'glob', note: 'dir_path → path' },
  {
    agent: 'gemini-cli',
    original: 'search_file_content',
    canonical: 'grep',
    note: 'dir_path → path',
  },
  { agent: 'gemini-cli', original: 'grep_search', canonical: 'grep', note: 'dir_path → path' },
  {
    agent: 'gemini-cli',
    original: 'write_todos',
    canonical: 'todo_write',
    note: 'parameters unchanged',
  },
  {
    agent: 'claude-code',
    original: 'Read',
    canonical: 'read_file',
    note: '{file_path, offset?, limit?} unchanged',
  },
  {
    agent: 'claude-code',
    original: 'NotebookRead',
    canonical: 'read_file',
    note: 'notebook_path → file_path',
  },
  {
    agent: 'claude-code',
    original: 'Write',
    canonical: 'write_file',
    note: '{file_path, content} unchanged',
  },
  {
    agent: 'claude-code',
    original: 'Edit',
    canonical: 'replace',
    note: '{file_path, old_string, new_string} unchanged (replace_all kept)',
  },
  {
    agent: 'claude-code',
    original: 'MultiEdit',
    canonical: 'replace',
    note: 'edits[] → old_string/new_string, each the edits joined by newlines',
  },
  {
    agent: 'claude-code',
    original: 'NotebookEdit',
    canonical: 'replace',
    note: 'notebook_path → file_path, new_source → new_string',
  },
  {
    agent: 'claude-code',
    original: 'Bash',
    canonical: 'run_shell_command',
    note: 'timeout → timeout_ms',
  },
  { agent: 'claude-code', original: 'Glob', canonical: 'glob', note: 'unchanged' },
  { agent: 'claude-code', original: 'Grep', canonical: 'grep', note: 'glob → include' },
  { agent: 'claude-code', original: 'LS', canonical: 'list_directory', note: 'unchanged' },
  { agent: 'claude-code', original: 'TodoWrite', canonical: 'todo_write', note: 'unchanged' },
  {
    agent: 'codex',
    original: 'shell / local_shell_call',
    canonical: 'run_shell_command',
    note: 'argv → one command string (`bash -lc X` → X), workdir → cwd',
  },
  {
    agent: 'codex',
    original: 'shell_command',
    canonical: 'run_shell_command',
    note: 'workdir → cwd',
  },
  {
    agent: 'codex',
    original: 'exec_command',
    canonical: 'run_shell_command',
    note: 'cmd → command, workdir → cwd',
  },
  {
    agent: 'codex',
    original: 'apply_patch',
    canonical: 'write_file / replace / delete_file',
    note: 'one call per file: Add File → write_file {file_path, content}; Update File → replace {file_path, old_string, new_string} (hunks joined by newlines; Move to → move_to); Delete File → delete_file {file_path}',
  },
  {
    agent: 'qwen-code',
    original: 'read_file',
    canonical: 'read_file',
    note: '{file_path, offset?, limit?} unchanged (absolute_path/path → file_path)',
  },
  { agent: 'qwen-code', original: 'write_file', canonical: 'write_file', note: 'unchanged' },
  {
    agent: 'qwen-code',
    original: 'edit',
    canonical: 'replace',
    note: '{file_path, old_string, new_string} unchanged (replace_all kept)',
  },
  {
    agent: 'qwen-code',
    original: 'notebook_edit',
    canonical: 'replace',
    note: 'notebook_path → file_path, new_source → new_string',
  },
  {
    agent: 'qwen-code',
    original: 'run_shell_command',
    canonical: 'run_shell_command',
    note: 'directory → cwd',
  },
  { agent: 'qwen-code', original: 'grep_search', canonical: 'grep', note: 'glob → include' },
  { agent: 'qwen-code', original: 'glob', canonical: 'glob', note: 'unchanged' },
  {
    agent: 'openhands',
    original: 'str_replace_editor view',
    canonical: 'read_file / read_line_range / list_directory',
    note: 'path → file_path; view_range → read_line_range {start_line, end_line}; a directory view → list_directory {path}',
  },
  {
    agent: 'openhands',
    original: 'str_replace_editor create',
    canonical: 'write_file',
    note: 'file_text → content',
  },
  {
    agent: 'openhands',
    original: 'str_replace_editor str_replace',
    canonical: 'replace',
    note: 'old_str/new_str → old_string/new_string',
  },
  {
    agent: 'openhands',
    original: 'str_replace_editor insert',
    canonical: 'insert_at_line',
    note: 'insert_line → line, new_str → content',
  },
  {
    agent: 'openhands',
    original: 'str_replace_editor undo_edit',
    canonical: 'write_file',
    note: '{file_path} (content not recorded)',
  },
  {
    agent: 'openhands',
    original: 'execute_bash',
    canonical: 'run_shell_command',
    note: 'unchanged',
  },
  {
    agent: 'openhands',
    original: 'edit_file',
    canonical: 'replace',
    note: 'path → file_path, content → new_string, start/end → start_line/end_line',
  },
  {
    agent: 'openhands',
    original: 'execute_ipython_cell (agentskills)',
    canonical: 'read_file / replace / write_file / insert_at_line',
    note: 'a cell that is one open_file / edit_file_by_replace / create_file / insert_content_at_line / append_file call; {file_path, code} (+ old_string/new_string when literal)',
  },
  {
    agent: 'swe-agent',
    original: 'open <f> [n] / goto n / scroll_up / scroll_down',
    canonical: 'read_file',
    note: '{file_path: the open file, offset?: n}',
  },
  {
    agent: 'swe-agent',
    original: 'edit n:m … end_of_edit',
    canonical: 'replace / delete_line_range',
    note: '{file_path: open file, start_line, end_line, new_string}; empty replacement → delete_line_range',
  },
  {
    agent: 'swe-agent',
    original: 'edit {search, replace}',
    canonical: 'replace',
    note: 'search/replace → old_string/new_string on the open file',
  },
  {
    agent: 'swe-agent',
    original: 'insert {text, line?}',
    canonical: 'insert_at_line',
    note: '{file_path: open file, content, line?}',
  },
  {
    agent: 'swe-agent',
    original: 'create <f>',
    canonical: 'write_file',
    note: "{file_path, content: ''}",
  },
  {
    agent: 'swe-agent',
    original: 'str_replace_editor …',
    canonical: '(as OpenHands)',
    note: 'same table as OpenHands',
  },
  {
    agent: 'swe-agent',
    original: 'bash / any other command',
    canonical: 'run_shell_command',
    note: '{command}',
  },
];
