/**
 * Project memory files: `AGENTS.md` and `DENSE.md` in the workspace root and in
 * each parent up to the repository root (the nearest directory with `.git`; without one, only the
 * workspace root). They go into the system prompt — outermost first, so the nearest speaks last —
 * which is sent with every request and never pruned.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

export const MEMORY_FILE_NAMES = ['AGENTS.md', 'DENSE.md'] as const;

export interface MemoryFile {
  readonly path: string;
  readonly text: string;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}

/** The workspace root and its parents up to the repository root, outermost first. */
async function memoryDirs(workspaceRoot: string): Promise<string[]> {
  const dirs: string[] = [];
  let dir = path.resolve(workspaceRoot);
  for (;;) {
    dirs.push(dir);
    if (await exists(path.join(dir, '.git'))) return dirs.reverse();
    const parent = path.dirname(dir);
    if (parent === dir) return [path.resolve(workspaceRoot)];
    dir = parent;
  }
}

export async function findMemoryFiles(workspaceRoot: string): Promise<MemoryFile[]> {
  const found: MemoryFile[] = [];
  for (const dir of await memoryDirs(workspaceRoot)) {
    for (const name of MEMORY_FILE_NAMES) {
      const file = path.join(dir, name);
      try {
        const text = await readFile(file, 'utf8');
        if (text.trim() !== '') found.push({ path: file, text });
      } catch {
        // absent or unreadable: nothing to add
      }
    }
  }
  return found;
}

/** The system prompt's memory section ('' without files). */
export function memoryPromptSection(files: readonly MemoryFile[]): string {
  if (files.length === 0) return '';
  const parts = files.map((f) => `## ${f.path}\n\n${f.text.trimEnd()}`);
  return `\n\n# Project memory\n\nInstructions from the project's memory files (the later, nearer ones take precedence):\n\n${parts.join('\n\n')}\n`;
}
