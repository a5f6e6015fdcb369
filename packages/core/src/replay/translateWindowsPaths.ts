/**
 * Sessions recorded on Windows name files as `C:\Users\…\a.py` in some calls and `src/a.py` in
 * others. Dense on that machine would resolve both with Windows rules; a replay on a POSIX host
 * would not, and READ→WRITE would miss every such pair. So before replaying a session whose
 * workspace is a Windows path, file paths in tool parameters and in inclusion markers are
 * rewritten to a POSIX form of the same path (`/C:/Users/…/a.py`), and the workspace with them.
 * Nothing else changes. Pure.
 */
import type { ContentBlock, IContent } from '../services/history/IContent.js';
import { isWindowsPath } from './oracle/pathKey.js';
import { findFileInclusions } from '../core/compression/densityVocabulary.js';

const PATH_KEYS = ['file_path', 'absolute_path', 'path', 'cwd', 'directory', 'dir_path'] as const;

/** `C:\a\b` → `/C:/a/b`; `a\b` → `a/b`. */
export function windowsToPosix(filePath: string): string {
  const slashed = filePath.replace(/\\/g, '/');
  return /^[A-Za-z]:\//.test(slashed) ? `/${slashed}` : slashed;
}

function translateParameters(parameters: unknown): unknown {
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) {
    return parameters;
  }
  const record = parameters as Readonly<Record<string, unknown>>;
  let changed = false;
  const out: Record<string, unknown> = { ...record };
  for (const key of PATH_KEYS) {
    const value = record[key];
    if (typeof value === 'string' && value.includes('\\')) {
      out[key] = windowsToPosix(value);
      changed = true;
    }
  }
  const paths = record.paths;
  if (Array.isArray(paths) && paths.some((p) => typeof p === 'string' && p.includes('\\'))) {
    out.paths = paths.map((p: unknown) => (typeof p === 'string' ? windowsToPosix(p) : p));
    changed = true;
  }
  return changed ? out : parameters;
}

/** Rewrites the path in the opening line of each inclusion (file content is left alone). */
function translateMarkers(text: string): string {
  if (!text.includes('\\')) return text;
  let out = text;
  for (const span of findFileInclusions(text).reverse()) {
    if (!span.filePath.includes('\\')) continue;
    const opener = `--- ${span.filePath} --- `;
    if (!text.startsWith(opener, span.start)) continue;
    const rest = out.slice(span.start + opener.length);
    out = `${out.slice(0, span.start)}--- ${windowsToPosix(span.filePath)} --- ${rest}`;
  }
  return out;
}

function translateBlock(block: ContentBlock): ContentBlock {
  switch (block.type) {
    case 'tool_call': {
      const parameters = translateParameters(block.parameters);
      return parameters === block.parameters ? block : { ...block, parameters };
    }
    case 'text': {
      const text = translateMarkers(block.text);
      return text === block.text ? block : { ...block, text };
    }
    case 'tool_response': {
      if (block.toolName !== 'read_many_files' || typeof block.result !== 'string') return block;
      const result = translateMarkers(block.result);
      return result === block.result ? block : { ...block, result };
    }
    case 'code':
    case 'media':
    case 'thinking':
      return block;
  }
}

export interface TranslatedSession {
  readonly contents: readonly IContent[];
  readonly workspaceRoot: string;
}

/** The session with Windows paths in POSIX form; unchanged when the workspace is not Windows. */
export function translateWindowsPaths(
  contents: readonly IContent[],
  workspaceRoot: string,
): TranslatedSession {
  if (!isWindowsPath(workspaceRoot)) return { contents, workspaceRoot };
  const translated = contents.map((entry) => {
    const blocks = entry.blocks.map(translateBlock);
    return blocks.every((block, i) => block === entry.blocks[i]) ? entry : { ...entry, blocks };
  });
  return { contents: translated, workspaceRoot: windowsToPosix(workspaceRoot) };
}
