/**
 * Expands the `@path` references of a prompt into the human message: each file between its own
 * marker pair from core's `formatFileInclusions` (the layout high-density's dedup recognises), then
 * a bracketed notice for each reference that could not be included — outside the workspace,
 * missing, a directory, binary, too large, or a glob that matched nothing.
 */
import path from 'node:path';
import {
  errnoCode,
  errorMessage,
  formatFileInclusions,
  hasGlobChars,
  isBinaryContent,
  nodeFileSystem,
  resolveWorkspacePath,
  splitGlobBase,
  type FileSystem,
} from '@dense/core';
import { AT_LIMITS, type AtLimits } from './atLimits.js';
import { capFileText } from './capFileText.js';
import { parseAtReferences } from './parseAtReferences.js';
import { walkGlob } from './walkGlob.js';

export interface IncludedFile {
  /** Workspace-relative, `/`-separated: the name in the inclusion markers. */
  readonly path: string;
  /** Lines included, and lines in the file (more when the file was cut to the limits). */
  readonly lines: number;
  readonly totalLines: number;
  readonly truncated: boolean;
}

export interface AtExpansion {
  /** The text to send: the prompt as typed, then the inclusions and notices. */
  readonly message: string;
  readonly included: readonly IncludedFile[];
  /** Why some references were not (fully) included; also part of `message`. */
  readonly notices: readonly string[];
}

export interface AtExpansionOptions {
  readonly workspaceRoot: string;
  readonly fs?: FileSystem;
  readonly limits?: Partial<AtLimits>;
}

interface Expander {
  readonly root: string;
  readonly fs: FileSystem;
  readonly limits: AtLimits;
  readonly files: { path: string; content: string }[];
  readonly included: IncludedFile[];
  readonly notices: string[];
  readonly seen: Set<string>;
  budget: number;
}

function missingOrError(error: unknown, label: string): string {
  const code = errnoCode(error);
  if (code === 'ENOENT' || code === 'ENOTDIR') return `${label} was not included: no such file.`;
  return `${label} was not included: ${errorMessage(error)}.`;
}

async function includeFile(x: Expander, target: string, label: string): Promise<void> {
  const resolved = await resolveWorkspacePath(x.root, target, x.fs);
  if (resolved.kind === 'outside') {
    x.notices.push(`${label} was not included: it is outside the workspace (${x.root}).`);
    return;
  }
  if (x.seen.has(resolved.relativePath)) return;
  x.seen.add(resolved.relativePath);
  const info = await x.fs.stat(resolved.realPath);
  if (info.kind === 'directory') {
    const hint = resolved.relativePath === '.' ? '**' : `${resolved.relativePath}/**`;
    x.notices.push(`${label} was not included: it is a directory (use @${hint} for its files).`);
    return;
  }
  if (info.kind !== 'file') {
    x.notices.push(`${label} was not included: it is not a regular file.`);
    return;
  }
  if (info.size > x.limits.maxReadBytes) {
    x.notices.push(`${label} was not included: it is too large (${info.size} bytes).`);
    return;
  }
  const bytes = await x.fs.readFile(resolved.realPath);
  if (isBinaryContent(bytes)) {
    x.notices.push(`${label} was not included: it is a binary file.`);
    return;
  }
  addText(x, resolved.relativePath, Buffer.from(bytes).toString('utf8'));
}

function addText(x: Expander, relativePath: string, text: string): void {
  if (x.budget <= 0) {
    x.notices.push(
      `@${relativePath} was not included: this message already holds ${x.limits.maxTotalBytes} bytes of files.`,
    );
    return;
  }
  const capped = capFileText(relativePath, text, {
    maxLines: x.limits.maxFileLines,
    maxBytes: Math.min(x.limits.maxFileBytes, x.budget),
  });
  if (capped.keptLines === 0 && capped.totalLines > 0) {
    x.budget = 0;
    addText(x, relativePath, text);
    return;
  }
  x.budget -= Buffer.byteLength(capped.text, 'utf8');
  x.files.push({ path: relativePath, content: capped.text });
  x.included.push({
    path: relativePath,
    lines: capped.keptLines,
    totalLines: capped.totalLines,
    truncated: capped.truncated,
  });
}

async function includeGlob(x: Expander, pattern: string, label: string): Promise<void> {
  const { base, rest } = splitGlobBase(pattern.replace(/^(\.\/)+/, ''));
  const start = await resolveWorkspacePath(x.root, base, x.fs);
  if (start.kind === 'outside') {
    x.notices.push(`${label} was not included: it is outside the workspace (${x.root}).`);
    return;
  }
  const walked = await walkGlob({
    fs: x.fs,
    baseDir: start.realPath,
    pattern: rest,
    maxMatches: x.limits.maxGlobFiles,
  });
  if (walked.files.length === 0) {
    x.notices.push(`${label} matched no files.`);
    return;
  }
  for (const file of walked.files) {
    const relative = path.relative(start.realPath, file).split(path.sep).join('/');
    const shown = base === '.' ? relative : `${base}/${relative}`;
    await includeOne(x, path.join(start.absolutePath, relative), `@${shown}`);
  }
  if (walked.truncated) {
    x.notices.push(
      `${label} matched more than ${x.limits.maxGlobFiles} files; only the first ${x.limits.maxGlobFiles} were included.`,
    );
  }
}

async function includeOne(x: Expander, target: string, label: string): Promise<void> {
  try {
    await includeFile(x, target, label);
  } catch (error) {
    x.notices.push(missingOrError(error, label));
  }
}

async function literallyExists(x: Expander, target: string): Promise<boolean> {
  try {
    await x.fs.lstat(path.resolve(x.root, target));
    return true;
  } catch {
    return false;
  }
}

/** Never throws for a bad reference: each becomes a notice. */
export async function expandAtReferences(
  prompt: string,
  options: AtExpansionOptions,
): Promise<AtExpansion> {
  const references = parseAtReferences(prompt);
  if (references.length === 0) return { message: prompt, included: [], notices: [] };
  const limits = { ...AT_LIMITS, ...options.limits };
  const x: Expander = {
    root: path.resolve(options.workspaceRoot),
    fs: options.fs ?? nodeFileSystem,
    limits,
    files: [],
    included: [],
    notices: [],
    seen: new Set(),
    budget: limits.maxTotalBytes,
  };
  for (const reference of references) {
    const label = `@${reference.path}`;
    if (hasGlobChars(reference.path) && !(await literallyExists(x, reference.path))) {
      try {
        await includeGlob(x, reference.path, label);
      } catch (error) {
        x.notices.push(`${label} was not included: ${errorMessage(error)}`);
      }
    } else {
      await includeOne(x, reference.path, label);
    }
  }
  const parts = [prompt];
  if (x.files.length > 0) parts.push(formatFileInclusions(x.files));
  if (x.notices.length > 0) parts.push(x.notices.map((notice) => `[${notice}]`).join('\n'));
  return { message: parts.join('\n\n'), included: x.included, notices: x.notices };
}
