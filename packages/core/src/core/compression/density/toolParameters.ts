/**
 * What density reads out of a tool call's parameters: the file a call targets, the paths of a
 * multi-file read, and how a path is keyed and displayed. Parameters are untrusted (`unknown`):
 * every reader answers `undefined` instead of throwing.
 */
import * as path from 'node:path';

/** Checked in this order (REQ-HD-005.4). */
const FILE_PATH_KEYS = ['file_path', 'absolute_path', 'path'] as const;

/**
 * Characters that make a `read_many_files` entry a pattern rather than one file. Beyond the spec's
 * `*` and `?`, `[` and `{` are glob syntax too; treating them as patterns only ever keeps more.
 */
const GLOB_CHARS = /[*?[{]/;

/** The parameters as a plain record, or `undefined` when they are not an object. */
export function parameterRecord(
  parameters: unknown,
): Readonly<Record<string, unknown>> | undefined {
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
    return undefined;
  }
  return parameters as Readonly<Record<string, unknown>>;
}

/** A parameter that is a non-empty string, or `undefined`. */
export function stringParameter(parameters: unknown, key: string): string | undefined {
  const value = parameterRecord(parameters)?.[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * The file a single-file tool call targets: the first of `file_path`, `absolute_path`, `path`
 * that is present. `undefined` when none is present or the present one is not a non-empty string
 * (a malformed call is skipped, never guessed at).
 */
export function extractFilePath(parameters: unknown): string | undefined {
  const record = parameterRecord(parameters);
  if (record === undefined) return undefined;
  for (const key of FILE_PATH_KEYS) {
    const value = record[key];
    if (value === undefined || value === null) continue;
    return typeof value === 'string' && value.length > 0 ? value : undefined;
  }
  return undefined;
}

export function isGlobPattern(filePath: string): boolean {
  return GLOB_CHARS.test(filePath);
}

/**
 * The files a `read_many_files` call read, when that is knowable: every entry of `paths` is a
 * non-empty string without glob characters and no `include` patterns add more. `undefined`
 * otherwise (a glob, an odd element, extra patterns, no paths): such a call is never pruned.
 */
export function concreteReadManyPaths(parameters: unknown): readonly string[] | undefined {
  const record = parameterRecord(parameters);
  const paths = record?.paths;
  if (!Array.isArray(paths) || paths.length === 0) return undefined;
  const include = record?.include;
  if (include !== undefined && !(Array.isArray(include) && include.length === 0)) return undefined;
  const concrete: string[] = [];
  for (const entry of paths as readonly unknown[]) {
    if (typeof entry !== 'string' || entry.length === 0 || isGlobPattern(entry)) return undefined;
    concrete.push(entry);
  }
  return concrete;
}

/**
 * The key two mentions of a file share: `path.resolve` against the workspace root, compared
 * exactly (no case folding, REQ-HD-005.5).
 */
export function resolveToolPath(filePath: string, workspaceRoot: string): string {
  return path.resolve(workspaceRoot, filePath);
}

const DISPLAY_MEMO_LIMIT = 4096;
const displayMemo = new Map<string, string>();

/**
 * A path as shown to the model: relative to the workspace root when inside it, else absolute.
 * Memoized (the same few paths recur all session; the memo is bounded).
 */
export function displayPath(filePath: string, workspaceRoot: string): string {
  const key = `${workspaceRoot}\0${filePath}`;
  let shown = displayMemo.get(key);
  if (shown === undefined) {
    if (displayMemo.size >= DISPLAY_MEMO_LIMIT) displayMemo.clear();
    shown = computeDisplayPath(filePath, workspaceRoot);
    displayMemo.set(key, shown);
  }
  return shown;
}

function computeDisplayPath(filePath: string, workspaceRoot: string): string {
  const resolved = resolveToolPath(filePath, workspaceRoot);
  const relative = path.relative(workspaceRoot, resolved);
  if (relative === '') return '.';
  const outside = relative === '..' || relative.startsWith(`..${path.sep}`);
  if (outside || path.isAbsolute(relative)) return resolved;
  return relative;
}
