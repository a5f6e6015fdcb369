/**
 * The facts the replay oracle reads off a recorded call and its response, by its own rules: tool
 * names as the importers canonicalised them (docs/transcripts.md), the parameters as recorded, the
 * result text, and the failure the importer recorded (`error`, an incomplete call, a non-zero exit
 * code in a shell result). Nothing here comes from the strategies' classifiers (a CI test keeps
 * this folder from importing `core/compression/` or `shell/`). Pure.
 */
import type { ToolCallBlock, ToolResponseBlock } from '../../services/history/IContent.js';

/** Tools whose result is the content of the file(s) they name. */
export const ORACLE_READ_TOOLS: ReadonlySet<string> = new Set([
  'read_file',
  'read_line_range',
  'read_many_files',
  'ast_read_file',
]);
/** Tools that change (or delete) the file they name when they succeed. */
export const ORACLE_WRITE_TOOLS: ReadonlySet<string> = new Set([
  'write_file',
  'replace',
  'insert_at_line',
  'delete_line_range',
  'ast_edit',
  'delete_file',
]);
export const ORACLE_SHELL_TOOLS: ReadonlySet<string> = new Set(['run_shell_command']);

/** Parameters naming the one file a call is about, in the order they are tried. */
const PATH_KEYS = ['file_path', 'absolute_path', 'path', 'notebook_path'] as const;
/** Parameters that make a read show only part of a file. */
const WINDOW_KEYS = ['offset', 'limit', 'start_line', 'end_line', 'line', 'view_range'] as const;
/** Parameters giving the directory a shell command runs in. */
const DIRECTORY_KEYS = ['cwd', 'directory', 'dir_path', 'workdir'] as const;
/** A read tool saying it showed a window of the file (`showing lines 1-200; …`). */
const WINDOW_NOTE = /\bshowing lines \d+\s*-\s*\d+/i;
/** Dense's shell tool reports the exit code on a line of its own. */
const EXIT_LINE = /^exit[ _]?code\s*:?\s*(-?\d+)\s*$/im;
const PATTERN_CHARS = /[*?[\]{}]/;

function record(parameters: unknown): Readonly<Record<string, unknown>> {
  return typeof parameters === 'object' && parameters !== null && !Array.isArray(parameters)
    ? (parameters as Readonly<Record<string, unknown>>)
    : {};
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The file a single-file call names, if any. */
export function namedFile(call: ToolCallBlock): string | undefined {
  const params = record(call.parameters);
  for (const key of PATH_KEYS) {
    const value = text(params[key]);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** The files a multi-file read asked for, when every one is a concrete path (no pattern). */
export function requestedFiles(call: ToolCallBlock): readonly string[] | undefined {
  const params = record(call.parameters);
  const paths = params.paths;
  if (!Array.isArray(paths) || paths.length === 0) return undefined;
  const include = params.include;
  if (Array.isArray(include) ? include.length > 0 : include !== undefined) return undefined;
  const files = paths.filter((p): p is string => typeof p === 'string' && p !== '');
  const concrete = files.length === paths.length && !files.some((p) => PATTERN_CHARS.test(p));
  return concrete ? files : undefined;
}

/** The call asked for a window of the file, or its result says it shows one. */
export function showsWindow(call: ToolCallBlock, resultText: string): boolean {
  const params = record(call.parameters);
  if (call.name === 'read_line_range') return true;
  if (WINDOW_KEYS.some((key) => params[key] !== undefined && params[key] !== null)) return true;
  return WINDOW_NOTE.test(resultText.slice(0, 400)) || WINDOW_NOTE.test(resultText.slice(-400));
}

export function shellCommand(call: ToolCallBlock): string | undefined {
  return text(record(call.parameters).command);
}

export function shellDirectory(call: ToolCallBlock): string | undefined {
  const params = record(call.parameters);
  return DIRECTORY_KEYS.map((key) => text(params[key])).find((value) => value !== undefined);
}

/** What the model read in a result: a string, an `{ output }` record's output, else its JSON. */
export function oracleResultText(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined || result === null) return '';
  const output = record(result).output;
  if (typeof output === 'string') return output;
  try {
    return JSON.stringify(result) ?? '';
  } catch {
    return '';
  }
}

/**
 * Whether the call did what it asked, as recorded: no error, not incomplete, and a shell result
 * reports no non-zero exit code. A failed write changes nothing; a failed read shows nothing.
 */
export function callSucceeded(response: ToolResponseBlock): boolean {
  if (response.error !== undefined || response.isComplete === false) return false;
  if (!ORACLE_SHELL_TOOLS.has(response.toolName)) return true;
  const code = EXIT_LINE.exec(oracleResultText(response.result))?.[1];
  return code === undefined || Number(code) === 0;
}
