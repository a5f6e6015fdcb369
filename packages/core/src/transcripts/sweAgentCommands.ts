/**
 * SWE-agent's editor commands → canonical calls. The windowed editor works on "the open file", so
 * `open`, `goto`, `scroll_*` become `read_file` and `edit`/`insert` become writes on whichever file
 * is open (tracked from the commands and the `[File: … (N lines total)]` header the editor prints).
 * Everything else is a shell command. Failed edits are recognised from the editor's messages.
 */
import path from 'node:path';
import { tokenizeShell } from '../shell/shellWords.js';
import { mapStrReplaceEditor, type CanonicalCall } from './toolAliases.js';

/** A command in structured form: parsed from a text action, or a function call's arguments. */
export interface SweCommand {
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

export interface EditorState {
  readonly openFile?: string;
  readonly cwd?: string;
}

const FILE_HEADER = /^\[File: (.+?) \(\d+ lines total(?: after edit)?\)\]/m;
const FAILURE_START =
  /^(Your proposed edit has introduced new syntax error|Your changes have NOT been applied|No file open|No replacement was performed|ERROR\b|Error:|Usage: |usage: |Invalid |No match found|Your search string|File .* not found|The file .* does not exist)/;
const EDITOR_COMMANDS = new Set([
  'open',
  'goto',
  'scroll_up',
  'scroll_down',
  'edit',
  'edit_lines',
  'insert',
  'create',
]);

function words(text: string): string[] {
  return tokenizeShell(text).flatMap((token) => (token.kind === 'word' ? [token.value] : []));
}

/** Parses a text action (the SWE-agent 0.x / thought-action protocol). */
export function parseSweAction(action: string): SweCommand {
  const trimmed = action.trim();
  const [firstLine = '', ...rest] = trimmed.split('\n');
  const name = firstLine.split(/\s+/, 1)[0] ?? '';
  const lineEdit = /^edit\s+(\d+):(\d+)\s*$/.exec(firstLine);
  if (lineEdit) {
    const end = rest.findIndex((line) => line.trim() === 'end_of_edit');
    const replacement = (end === -1 ? rest : rest.slice(0, end)).join('\n');
    return {
      name: 'edit_lines',
      args: { start: Number(lineEdit[1]), end: Number(lineEdit[2]), replacement },
    };
  }
  if (!EDITOR_COMMANDS.has(name) && name !== 'str_replace_editor')
    return { name: 'bash', args: { command: trimmed } };
  const argv = words(trimmed).slice(1);
  switch (name) {
    case 'open':
      return { name, args: { path: argv[0], line_number: argv[1] } };
    case 'goto':
      return { name, args: { line_number: argv[0] } };
    case 'edit':
      return { name, args: { search: argv[0], replace: argv[1] } };
    case 'insert':
      return { name, args: { text: argv[0], line: argv[1] } };
    case 'create':
      return { name, args: { filename: argv[0] } };
    case 'str_replace_editor':
      return { name, args: editorFlags(argv) };
    default:
      return { name, args: {} };
  }
}

/** `str_replace_editor view PATH --view_range 1 20` → `{command, path, view_range}`. */
function editorFlags(argv: readonly string[]): Record<string, unknown> {
  const args: Record<string, unknown> = { command: argv[0], path: argv[1] };
  for (let i = 2; i < argv.length; i++) {
    const flag = argv[i]?.replace(/^--/, '');
    if (flag === 'view_range') {
      args.view_range = [Number(argv[i + 1]), Number(argv[i + 2])];
      i += 2;
    } else if (flag !== undefined) {
      args[flag] = flag === 'insert_line' ? Number(argv[i + 1]) : argv[i + 1];
      i += 1;
    }
  }
  return args;
}

function toNumber(value: unknown): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : undefined;
}

function resolveIn(cwd: string | undefined, file: string): string {
  return cwd === undefined || path.posix.isAbsolute(file) ? file : path.posix.join(cwd, file);
}

/** Whether an editor observation reports that the command failed (nothing was changed). */
export function isEditorFailure(observation: string): boolean {
  return FAILURE_START.test(observation.trimStart());
}

export interface MappedSweCommand {
  readonly call: CanonicalCall;
  /** The open file after the command. */
  readonly openFile?: string;
}

function onFile(
  name: string,
  file: string | undefined,
  parameters: Record<string, unknown>,
): CanonicalCall | undefined {
  return file === undefined ? undefined : { name, parameters: { file_path: file, ...parameters } };
}

function lineEdit(args: SweCommand['args'], target: string | undefined): CanonicalCall | undefined {
  const range = { start_line: args.start, end_line: args.end };
  return args.replacement === ''
    ? onFile('delete_line_range', target, range)
    : onFile('replace', target, { ...range, new_string: args.replacement });
}

/** An editor command on `target` (the file it names, or the open file). */
function editorCall(command: SweCommand, target: string | undefined): CanonicalCall | undefined {
  const { args } = command;
  const line = toNumber(args.line_number);
  const at = toNumber(args.line);
  switch (command.name) {
    case 'open':
    case 'goto':
      return onFile('read_file', target, line === undefined ? {} : { offset: line });
    case 'scroll_up':
    case 'scroll_down':
      return onFile('read_file', target, {});
    case 'create':
      return onFile('write_file', target, { content: '' });
    case 'edit_lines':
      return lineEdit(args, target);
    case 'edit':
      return onFile('replace', target, { old_string: args.search, new_string: args.replace });
    case 'insert':
      return onFile('insert_at_line', target, {
        content: args.text,
        ...(at === undefined ? {} : { line: at }),
      });
    default:
      return undefined;
  }
}

/** The file a command acts on: the editor's `[File: …]` header, the path it names, or the open file. */
function targetFile(
  command: SweCommand,
  state: EditorState,
  observation: string,
): string | undefined {
  const header = FILE_HEADER.exec(observation)?.[1];
  if (header !== undefined) return header;
  const named =
    command.name === 'open'
      ? command.args.path
      : command.name === 'create'
        ? command.args.filename
        : undefined;
  return typeof named === 'string' ? resolveIn(state.cwd, named) : state.openFile;
}

function unchanged(state: EditorState): { openFile?: string } {
  return state.openFile === undefined ? {} : { openFile: state.openFile };
}

/**
 * The canonical call for a command, given the editor state before it and its observation.
 * Unknown commands and editor commands with no file to act on stay shell commands.
 */
export function mapSweCommand(
  command: SweCommand,
  state: EditorState,
  observation = '',
  raw = '',
): MappedSweCommand {
  if (command.name === 'str_replace_editor') {
    const isDirectory = /^Here's the files and directories/m.test(observation.slice(0, 300));
    return { call: mapStrReplaceEditor(command.args, { isDirectory }), ...unchanged(state) };
  }
  const target = targetFile(command, state, observation);
  const call = EDITOR_COMMANDS.has(command.name) ? editorCall(command, target) : undefined;
  if (call === undefined) {
    const text = typeof command.args.command === 'string' ? command.args.command : raw;
    return {
      call: { name: 'run_shell_command', parameters: { command: text } },
      ...unchanged(state),
    };
  }
  const openFile = isEditorFailure(observation) ? state.openFile : target;
  return { call, ...(openFile === undefined ? {} : { openFile }) };
}
