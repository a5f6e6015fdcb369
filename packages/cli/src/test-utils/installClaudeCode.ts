/**
 * Installs the pinned Claude Code npm package into an ignored cache folder for the real-client
 * end-to-end test. Its native binary comes in a platform package copied into place by the
 * package's postinstall script, which our `allowScripts` policy blocks: the install runs with
 * `--ignore-scripts` and then runs that one step itself. Resolves to the binary, or to the reason
 * it could not be installed (the test then skips with that one line).
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const CLAUDE_CODE_VERSION = '2.1.331';

export const CLAUDE_CODE_CACHE = fileURLToPath(
  new URL('../../../../.cache/claude-code/', import.meta.url),
);

export type ClaudeCodeInstall =
  | { readonly kind: 'installed'; readonly binary: string }
  | { readonly kind: 'unavailable'; readonly reason: string };

function packageDir(cache: string): string {
  return path.join(cache, 'node_modules', '@anthropic-ai', 'claude-code');
}

/** The placeholder `bin/claude.exe` is a few hundred bytes; the real binary is large. */
function isNative(binary: string): boolean {
  return existsSync(binary) && statSync(binary).size > 1_000_000;
}

async function versionOf(binary: string): Promise<string> {
  const { stdout } = await run(binary, ['--version'], { timeout: 30_000 });
  return stdout.trim();
}

/** Without the `npm_*` variables an enclosing `npm run` / `npx` sets (workspace, prefix …). */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
  );
}

export async function installClaudeCode(cache = CLAUDE_CODE_CACHE): Promise<ClaudeCodeInstall> {
  const dir = packageDir(cache);
  const binary = path.join(dir, 'bin', 'claude.exe');
  try {
    if (!isNative(binary) || !(await versionOf(binary)).startsWith(CLAUDE_CODE_VERSION)) {
      await mkdir(cache, { recursive: true });
      const spec = `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`;
      const args = ['install', '--prefix', cache, '--ignore-scripts', '--no-audit', '--no-fund'];
      await run('npm', [...args, '--no-save', spec], {
        cwd: cache,
        env: cleanEnv(),
        timeout: 300_000,
      });
      await run(process.execPath, ['install.cjs'], { cwd: dir, timeout: 120_000 });
    }
    if (!isNative(binary)) return { kind: 'unavailable', reason: 'no native binary after install' };
    const version = await versionOf(binary);
    if (!version.startsWith(CLAUDE_CODE_VERSION)) {
      return { kind: 'unavailable', reason: `unexpected version '${version}'` };
    }
    return { kind: 'installed', binary };
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr;
    const detail =
      typeof stderr === 'string' ? stderr.split('\n').find((l) => l.includes('ERR')) : '';
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { kind: 'unavailable', reason: (detail || message) ?? 'install failed' };
  }
}
