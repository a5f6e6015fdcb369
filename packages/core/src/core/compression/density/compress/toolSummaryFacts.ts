/**
 * What a one-line summary says about a call besides its outcome: the subject (its key parameter,
 * taken from the call: a file path, a command, a pattern) and a fact per kind of tool (lines read,
 * files read, lines written, matches found, the telling line of a shell command's output).
 */
import { findFileInclusions, isWriteTool } from '../../densityVocabulary.js';
import type { ToolCallBlock } from '../../../../services/history/IContent.js';
import { clip, plural, quote } from './summaryText.js';
import {
  displayPath,
  extractFilePath,
  isGlobPattern,
  parameterRecord,
  stringParameter,
} from '../toolParameters.js';
import { countLines, isShellTool } from '../toolResultText.js';
import { outputBody } from '../shellOutputLines.js';

export type ToolKind = 'read' | 'read-many' | 'write' | 'shell' | 'search' | 'other';

const SEARCH_TOOLS: ReadonlySet<string> = new Set([
  'grep',
  'grep_search',
  'search_file_content',
  'glob',
]);
const READ_TOOLS: ReadonlySet<string> = new Set(['read_file', 'read_line_range', 'ast_read_file']);
const SUBJECT_MAX = 80;
const QUOTE_MAX = 60;
const OTHER_KEYS = ['command', 'pattern', 'query', 'url', 'name'] as const;

export function toolKindOf(toolName: string, parameters: unknown): ToolKind {
  if (toolName === 'read_many_files') return 'read-many';
  if (READ_TOOLS.has(toolName)) return 'read';
  if (isWriteTool(toolName)) return 'write';
  if (isShellTool(toolName)) return 'shell';
  if (SEARCH_TOOLS.has(toolName)) return 'search';
  if (stringParameter(parameters, 'command') !== undefined) return 'shell';
  if (stringParameter(parameters, 'pattern') !== undefined) return 'search';
  return 'other';
}

/** The call's key parameter as shown in a summary, or `undefined` when it has none. */
export function summarySubject(
  kind: ToolKind,
  call: ToolCallBlock | undefined,
  workspaceRoot: string,
): string | undefined {
  if (call === undefined) return undefined;
  const params = call.parameters;
  switch (kind) {
    case 'read-many':
      return manyPathsSubject(params, workspaceRoot);
    case 'shell':
      return optionalClip(stringParameter(params, 'command'));
    case 'search':
      return searchSubject(params, workspaceRoot);
    case 'read':
    case 'write':
    case 'other':
      return fileOrOtherSubject(params, workspaceRoot);
  }
}

function optionalClip(text: string | undefined): string | undefined {
  return text === undefined ? undefined : clip(text, SUBJECT_MAX);
}

function fileOrOtherSubject(params: unknown, workspaceRoot: string): string | undefined {
  const file = extractFilePath(params);
  if (file !== undefined) return clip(displayPath(file, workspaceRoot), SUBJECT_MAX);
  for (const key of OTHER_KEYS) {
    const value = stringParameter(params, key);
    if (value !== undefined) return clip(value, SUBJECT_MAX);
  }
  return undefined;
}

function manyPathsSubject(params: unknown, workspaceRoot: string): string | undefined {
  const paths = parameterRecord(params)?.paths;
  if (!Array.isArray(paths)) return undefined;
  const names = (paths as readonly unknown[]).filter(
    (entry): entry is string => typeof entry === 'string',
  );
  if (names.length === 0) return undefined;
  const shown = names
    .slice(0, 3)
    .map((name) => (isGlobPattern(name) ? name : displayPath(name, workspaceRoot)));
  const more = names.length > 3 ? ` (+${names.length - 3} more)` : '';
  return clip(shown.join(', '), SUBJECT_MAX) + more;
}

function searchSubject(params: unknown, workspaceRoot: string): string | undefined {
  const pattern = stringParameter(params, 'pattern');
  if (pattern === undefined) return fileOrOtherSubject(params, workspaceRoot);
  const where = extractFilePath(params);
  const scope = where === undefined ? '' : ` in ${clip(displayPath(where, workspaceRoot), 40)}`;
  return quote(pattern, QUOTE_MAX) + scope;
}

/** Facts about a result, by kind. `text` is the result as text; facts never span lines. */
export function summaryFacts(
  kind: ToolKind,
  call: ToolCallBlock | undefined,
  text: string,
): string[] {
  switch (kind) {
    case 'read':
      return [plural(countLines(text), 'line')];
    case 'read-many': {
      const files = findFileInclusions(text).length;
      return [files > 0 ? plural(files, 'file') : plural(countLines(text), 'line')];
    }
    case 'write': {
      const content = call === undefined ? undefined : stringParameter(call.parameters, 'content');
      return content === undefined ? [] : [`${plural(countLines(content), 'line')} written`];
    }
    case 'shell':
      return shellFacts(text);
    case 'search':
      return [searchFact(text)];
    case 'other':
      return otherFacts(text);
  }
}

const FOUND = /\bfound (\d+) (match|matches|file|files|file\(s\))\b/i;
const NO_MATCHES = /\bno (matches|files) found\b/i;

function searchFact(text: string): string {
  const found = FOUND.exec(text);
  if (found?.[1] !== undefined && found[2] !== undefined) {
    const isFile = found[2].toLowerCase().startsWith('file');
    return plural(Number(found[1]), isFile ? 'file' : 'match', isFile ? 'files' : 'matches');
  }
  if (NO_MATCHES.test(text)) return '0 matches';
  return plural(countLines(text), 'line');
}

const TELLING = /\b(fail(ed|ures?)?|errors?|passed|passing|tests?|warnings?|exception)\b/i;

/**
 * The most telling line of a shell result: the last one naming failures or tests, else the last
 * line of output. Walks back from the end (the verdict is usually there) without splitting it all.
 */
function shellFacts(text: string): string[] {
  let lastLine: string | undefined;
  let end = text.length;
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end).trim();
    end = start - 1;
    const body = outputBody(line);
    if (body === '') continue;
    if (TELLING.test(body)) return [quote(body, QUOTE_MAX)];
    lastLine ??= body;
  }
  return lastLine === undefined ? ['no output'] : [quote(lastLine, QUOTE_MAX)];
}

function otherFacts(text: string): string[] {
  const lines = countLines(text);
  if (lines === 0) return [];
  if (lines > 1) return [plural(lines, 'line')];
  return [quote(text, QUOTE_MAX)];
}
