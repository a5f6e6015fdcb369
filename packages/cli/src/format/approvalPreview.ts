/**
 * What an approval prompt shows beyond its one-line description: the unified
 * diff for edits and writes to existing files, the first lines of a new file, the full shell
 * command and its working directory. Reads the current file through `readText`; never throws.
 */
import path from 'node:path';
import type { ApprovalRequest } from '@dense/core';
import { unifiedDiff, type DiffLine } from './unifiedDiff.js';

export type PreviewLine = DiffLine | { readonly kind: 'info'; readonly text: string };

export interface PreviewDeps {
  readonly workspaceRoot: string;
  /** The file's text, or undefined when it does not exist or cannot be read. */
  readonly readText: (absolutePath: string) => Promise<string | undefined>;
}

/** Longest preview shown; the rest is counted. */
export const MAX_PREVIEW_LINES = 24;
const NEW_FILE_LINES = 10;

function field(parameters: unknown, name: string): string | undefined {
  if (typeof parameters !== 'object' || parameters === null) return undefined;
  const value = (parameters as Readonly<Record<string, unknown>>)[name];
  return typeof value === 'string' ? value : undefined;
}

function cap(lines: readonly PreviewLine[]): PreviewLine[] {
  if (lines.length <= MAX_PREVIEW_LINES) return [...lines];
  const rest = lines.length - (MAX_PREVIEW_LINES - 1);
  return [
    ...lines.slice(0, MAX_PREVIEW_LINES - 1),
    { kind: 'info', text: `… ${rest} more line${rest === 1 ? '' : 's'}` },
  ];
}

function newFileLines(content: string): PreviewLine[] {
  const lines = content === '' ? [] : content.replace(/\r?\n$/, '').split(/\r?\n/);
  const shown = lines
    .slice(0, NEW_FILE_LINES)
    .map((line) => ({ kind: 'add' as const, text: `+${line}` }));
  const more = lines.length - shown.length;
  return [
    { kind: 'info', text: `new file, ${lines.length} line${lines.length === 1 ? '' : 's'}` },
    ...shown,
    ...(more > 0
      ? [{ kind: 'info' as const, text: `… ${more} more line${more === 1 ? '' : 's'}` }]
      : []),
  ];
}

function diffOrNote(before: string, after: string): PreviewLine[] {
  const diff = unifiedDiff(before, after);
  return diff.length > 0 ? cap(diff) : [{ kind: 'info', text: 'no change to the file' }];
}

async function filePreview(request: ApprovalRequest, deps: PreviewDeps): Promise<PreviewLine[]> {
  const file = field(request.parameters, 'file_path');
  if (file === undefined) return [];
  const before = await deps.readText(path.resolve(deps.workspaceRoot, file));
  if (request.toolName === 'write_file') {
    const content = field(request.parameters, 'content') ?? '';
    return before === undefined ? newFileLines(content) : diffOrNote(before, content);
  }
  const oldString = field(request.parameters, 'old_string');
  const newString = field(request.parameters, 'new_string') ?? '';
  if (oldString === undefined) return [];
  if (oldString === '') return before === undefined ? newFileLines(newString) : [];
  if (before?.includes(oldString) !== true) return [];
  return diffOrNote(before, before.split(oldString).join(newString));
}

function shellPreview(request: ApprovalRequest, workspaceRoot: string): PreviewLine[] {
  const command = field(request.parameters, 'command');
  if (command === undefined) return [];
  const cwd = path.resolve(workspaceRoot, field(request.parameters, 'cwd') ?? '.');
  return [
    ...command.split('\n').map((line, index) => ({
      kind: 'context' as const,
      text: `${index === 0 ? '$' : '>'} ${line}`,
    })),
    { kind: 'info', text: `in ${cwd}` },
  ];
}

export async function approvalPreview(
  request: ApprovalRequest,
  deps: PreviewDeps,
): Promise<PreviewLine[]> {
  try {
    if (request.toolName === 'run_shell_command') return shellPreview(request, deps.workspaceRoot);
    if (request.toolName === 'write_file' || request.toolName === 'replace') {
      return await filePreview(request, deps);
    }
  } catch {
    // a preview is a courtesy: the prompt still shows the description
  }
  return [];
}
