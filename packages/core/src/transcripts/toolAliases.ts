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
