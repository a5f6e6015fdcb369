/**
 * Recovers the working directory of a session whose format does not record it (gemini-cli chat
 * recordings): a call on a relative path whose result names the same file by absolute path gives
 * the directory away (`learnings.md` → "wrote to /home/u/proj/learnings.md" → `/home/u/proj`).
 */
import type { IContent, ToolCallBlock } from '../services/history/IContent.js';
import { pairToolCallsByPosition } from '../services/history/toolCallPairing.js';
import { isParams } from './toolAliases.js';

function isAbsolute(file: string): boolean {
  return file.startsWith('/') || /^[A-Za-z]:[\\/]/.test(file) || file.startsWith('\\\\');
}

function stringResult(result: unknown): string {
  return typeof result === 'string' ? result : '';
}

/** Directories that, joined with the relative `file`, give a path named in `text`. */
function rootsNamedIn(file: string, text: string): string[] {
  const relative = file.replace(/^\.[\\/]/, '');
  const roots: string[] = [];
  for (const separator of ['/', '\\']) {
    const suffix = `${separator}${relative.split(/[\\/]/).join(separator)}`;
    const at = text.indexOf(suffix);
    if (at === -1) continue;
    const start = Math.max(text.lastIndexOf(' ', at), text.lastIndexOf('\n', at)) + 1;
    const root = text.slice(start, at);
    if (isAbsolute(root)) roots.push(root);
  }
  return roots;
}

function relativeFileOf(call: ToolCallBlock | undefined): string | undefined {
  const file = isParams(call?.parameters) ? call.parameters.file_path : undefined;
  return typeof file === 'string' && file !== '' && !isAbsolute(file) ? file : undefined;
}

/** The directory most calls agree on, or undefined when no call gives one away. */
export function inferWorkspaceRoot(contents: readonly IContent[]): string | undefined {
  const votes = new Map<string, number>();
  for (const { block, call } of pairToolCallsByPosition(contents).responses) {
    const file = relativeFileOf(call?.block);
    if (file === undefined) continue;
    const text = `${stringResult(block.result)}\n${block.error ?? ''}`;
    for (const root of rootsNamedIn(file, text)) votes.set(root, (votes.get(root) ?? 0) + 1);
  }
  return [...votes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}
