/**
 * Finds the shipped prompt defaults (`src/prompt-config/defaults` of @dense/core) from any module
 * of the package, by walking up to its package.json — the same answer from `src` and from `dist`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORE_PACKAGE_NAME = '@dense/core';

/** Where the defaults sit inside the package root. */
export const DEFAULTS_SUBDIR = path.join('src', 'prompt-config', 'defaults');

/** Reads a file's text, or throws (any error means "not here"). */
export type ReadTextSync = (filePath: string) => string;

function packageNameAt(dir: string, readText: ReadTextSync): string | undefined {
  try {
    const parsed: unknown = JSON.parse(readText(path.join(dir, 'package.json')));
    if (typeof parsed !== 'object' || parsed === null || !('name' in parsed)) return undefined;
    return typeof parsed.name === 'string' ? parsed.name : undefined;
  } catch {
    return undefined;
  }
}

/** The nearest directory at or above `startDir` whose package.json is named `packageName`. */
export function findPackageRoot(
  startDir: string,
  packageName: string,
  readText: ReadTextSync = (filePath) => readFileSync(filePath, 'utf8'),
): string | undefined {
  let dir = path.resolve(startDir);
  for (;;) {
    if (packageNameAt(dir, readText) === packageName) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The defaults directory for the module at `moduleUrl` (an `import.meta.url` inside @dense/core),
 * or `undefined` when no @dense/core package.json is above it (e.g. a bundled build).
 */
export function locateDefaultPromptsDir(
  moduleUrl: string,
  readText?: ReadTextSync,
): string | undefined {
  const root = findPackageRoot(path.dirname(fileURLToPath(moduleUrl)), CORE_PACKAGE_NAME, readText);
  return root === undefined ? undefined : path.join(root, DEFAULTS_SUBDIR);
}
