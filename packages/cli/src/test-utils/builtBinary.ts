/**
 * For end-to-end tests: the built `dense` binary and the standalone mock server, built on demand
 * when dist is missing or older than the CLI's sources. Resolves to a reason when they cannot be
 * had, so the tests can skip with a clear message.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
export const DENSE_BIN = path.join(REPO_ROOT, 'packages/cli/dist/index.js');
export const MOCK_SERVER_BIN = path.join(
  REPO_ROOT,
  'packages/core/dist/test-utils/mockServer/cli.js',
);

/** Source folders the build leaves out (see tsconfig.build.json). */
const NOT_BUILT = new Set(['test-utils', 'e2e']);

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!NOT_BUILT.has(entry.name)) newest = Math.max(newest, newestSource(full));
    } else if (/\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
      newest = Math.max(newest, statSync(full).mtimeMs);
    }
  }
  return newest;
}

function isStale(): boolean {
  if (!existsSync(DENSE_BIN) || !existsSync(MOCK_SERVER_BIN)) return true;
  const built = statSync(path.join(REPO_ROOT, 'packages/cli/dist/main.js')).mtimeMs;
  return newestSource(path.join(REPO_ROOT, 'packages/cli/src')) > built;
}

/** `undefined` when both binaries are ready, else why not. */
export async function ensureBuilt(): Promise<string | undefined> {
  if (!isStale()) return undefined;
  try {
    await promisify(execFile)(
      process.execPath,
      [
        path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc'),
        '-b',
        'packages/core/tsconfig.build.json',
        'packages/cli/tsconfig.build.json',
      ],
      { cwd: REPO_ROOT, timeout: 300_000 },
    );
  } catch (error) {
    if (existsSync(DENSE_BIN) && existsSync(MOCK_SERVER_BIN)) return undefined;
    return `could not build the CLI (run npm run build): ${String(error).split('\n')[0]}`;
  }
  return existsSync(DENSE_BIN) ? undefined : 'npm run build did not produce packages/cli/dist';
}
