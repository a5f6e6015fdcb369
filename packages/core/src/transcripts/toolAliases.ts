/**
 * The alias table: how each agent's recorded tool calls map to our canonical tool names and
 * parameters (`read_file {file_path, offset?, limit?}`, `replace {file_path, old_string, new_string}`,
 * `run_shell_command {command}` …). Parameters the canonical schema does not name are kept under
 * their original names, so a call costs about as many tokens as it did when it was recorded.
 * docs/transcripts.md renders `TOOL_ALIASES`; calls not in the table keep their recorded name.
 */

export type SourceAgent =
  'gemini-cli' | 'claude-code' | 'codex' | 'qwen-code' | 'openhands' | 'swe-agent';

export interface CanonicalCall {
  readonly name: string;
  readonly parameters: unknown;
}

/** What the importer knows beyond the call itself (e.g. that a `view` showed a directory). */
export interface AliasHints {
  readonly isDirectory?: boolean;
}

/** The canonical name a deletion maps to (Codex `*** Delete File:`); not one of our tools. */
export const DELETE_FILE_TOOL = 'delete_file';

type Params = Readonly<Record<string, unknown>>;
type Mapper = (params: Params, hints: AliasHints) => CanonicalCall;

export interface ToolAlias {
  readonly agent: SourceAgent;
  readonly original: string;
  readonly canonical: string;
  readonly note: string;
}

export function isParams(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A copy of `params` with keys renamed (`{from: to}`; `to` = null drops the key). Renamed keys come
 * first; a key that is already present under its canonical name wins over its alias.
 */
export function renameParams(
  params: Params,
  renames: Readonly<Record<string, string | null>>,
): Params {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) {
    const target = Object.hasOwn(renames, key) ? renames[key] : key;
    if (target === null || target === undefined || value === undefined) continue;
    if (target !== key && Object.hasOwn(params, target)) continue;
    out[target] = value;
  }
  return out;
}

function call(name: string, parameters: Params): CanonicalCall {
  return { name, parameters };
}

const PATH_TO_FILE = { absolute_path: 'file_path', path: 'file_path' } as const;

const geminiReadFile: Mapper = (p) =>
  p.start_line !== undefined && p.offset === undefined
    ? call('read_line_range', renameParams(p, PATH_TO_FILE))
    : call('read_file', renameParams(p, PATH_TO_FILE));

const joinEdits = (edits: unknown, key: 'old_string' | 'new_string'): string =>
  (Array.isArray(edits) ? edits : [])
    .map((edit) => (isParams(edit) && typeof edit[key] === 'string' ? edit[key] : ''))
    .join('\n');

/** `str_replace_editor` (OpenHands, SWE-agent 1.x) by its `command`. */
export const mapStrReplaceEditor: Mapper = (p, hints) => {
  const base = renameParams(p, { path: 'file_path', command: null });
  switch (p.command) {
    case 'view':
      if (hints.isDirectory) return call('list_directory', renameParams(p, { command: null }));
      if (Array.isArray(p.view_range) && p.view_range.length === 2) {
        const [start, end] = p.view_range as unknown[];
        return call('read_line_range', {
          ...renameParams(base, { view_range: null }),
          start_line: start,
          end_line: end,
        });
      }
      return call('read_file', base);
    case 'create':
      return call('write_file', renameParams(base, { file_text: 'content' }));
    case 'str_replace':
      return call('replace', renameParams(base, { old_str: 'old_string', new_str: 'new_string' }));
    case 'insert':
      return call(
        'insert_at_line',
        renameParams(base, { insert_line: 'line', new_str: 'content' }),
      );
    case 'undo_edit':
      return call('write_file', base);
    default:
      return call('str_replace_editor', p);
  }
};

const MAPPERS: Readonly<Record<SourceAgent, Readonly<Record<string, Mapper>>>> = {
  'gemini-cli': {
    read_file: geminiReadFile,
    write_file: (p) => call('write_file', renameParams(p, PATH_TO_FILE)),
    replace: (p) => call('replace', renameParams(p, PATH_TO_FILE)),
    run_shell_command: (p) =>
      call('run_shell_command', renameParams(p, { directory: 'cwd', dir_path: 'cwd' })),
    list_directory: (p) => call('list_directory', renameParams(p, { dir_path: 'path' })),
    glob: (p) => call('glob', renameParams(p, { dir_path: 'path' })),
    search_file_content: (p) => call('grep', renameParams(p, { dir_path: 'path' })),
    grep_search: (p) => call('grep', renameParams(p, { dir_path: 'path' })),
    write_todos: (p) => call('todo_write', p),
  },
  'claude-code': {
    Read: (p) => call('read_file', p),
    NotebookRead: (p) => call('read_file', renameParams(p, { notebook_path: 'file_path' })),
    Write: (p) => call('write_file', p),
    Edit: (p) => call('replace', p),
    MultiEdit: (p) =>
      call('replace', {
        ...renameParams(p, { edits: null }),
        old_string: joinEdits(p.edits, 'old_string'),
        new_string: joinEdits(p.edits, 'new_string'),
      }),
    NotebookEdit: (p) =>
      call('replace', renameParams(p, { notebook_path: 'file_path', new_source: 'new_string' })),
    Bash: (p) => call('run_shell_command', renameParams(p, { timeout: 'timeout_ms' })),
    Glob: (p) => call('glob', p),
    Grep: (p) => call('grep', renameParams(p, { glob: 'include' })),
    LS: (p) => call('list_directory', p),
    TodoWrite: (p) => call('todo_write', p),
  },
  codex: {
    shell_command: (p) => call('run_shell_command', renameParams(p, { workdir: 'cwd' })),
    exec_command: (p) =>
      call('run_shell_command', renameParams(p, { cmd: 'command', workdir: 'cwd' })),
    shell: (p) => call('run_shell_command', renameParams(p, { workdir: 'cwd' })),
  },
  'qwen-code': {
    read_file: geminiReadFile,
    write_file: (p) => call('write_file', renameParams(p, PATH_TO_FILE)),
    edit: (p) => call('replace', renameParams(p, PATH_TO_FILE)),
    notebook_edit: (p) =>
      call('replace', renameParams(p, { notebook_path: 'file_path', new_source: 'new_string' })),
    run_shell_command: (p) => call('run_shell_command', renameParams(p, { directory: 'cwd' })),
    grep_search: (p) => call('grep', renameParams(p, { glob: 'include' })),
    glob: (p) => call('glob', p),
  },
  openhands: {
    str_replace_editor: mapStrReplaceEditor,
    execute_bash: (p) => call('run_shell_command', p),
    edit_file: (p) =>
      call(
        'replace',
        renameParams(p, {
          path: 'file_path',
          content: 'new_string',
          start: 'start_line',
          end: 'end_line',
        }),
      ),
  },
  'swe-agent': {
    str_replace_editor: mapStrReplaceEditor,
    bash: (p) => call('run_shell_command', p),
  },
};

/** Whether `agent`'s table names the tool `name` (a client's calls are read by its own table). */
export function hasToolAlias(agent: SourceAgent, name: string): boolean {
  return Object.hasOwn(MAPPERS[agent], name);
}

/**
 * The canonical form of one recorded call. Unknown tools, and calls whose parameters are not an
 * object, keep their recorded name and parameters.
 */
export function mapToolCall(
  agent: SourceAgent,
  name: string,
  parameters: unknown,
  hints: AliasHints = {},
): CanonicalCall {
  const mapper = MAPPERS[agent][name];
  if (mapper === undefined || !isParams(parameters)) return { name, parameters };
  return mapper(parameters, hints);
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
