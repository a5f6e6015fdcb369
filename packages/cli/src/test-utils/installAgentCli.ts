/**
 * Installs a pinned agent CLI from npm (Claude Code, Codex, Qwen Code) into an ignored cache folder for the
 * real-client end-to-end tests. Their native binaries come in platform packages; Claude Code's
 * postinstall copies its binary into place, which our `allowScripts` policy blocks, so installs
 * run with `--ignore-scripts` and the test runs that one step itself. Resolves to a command line,
 * or to the reason the tool could not be installed (the test then skips with that one line).
 */
import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

export const CLAUDE_CODE_VERSION = '2.1.331';
export const CODEX_VERSION = '0.169.0';
/** Declares Node >= 22 but runs headless on Node 20 (npm only warns: EBADENGINE). */
export const QWEN_CODE_VERSION = '0.24.4';

const CACHE_ROOT = fileURLToPath(new URL('../../../../.cache/', import.meta.url));

export type AgentInstall =
  | { readonly kind: 'installed'; readonly command: readonly string[] }
  | { readonly kind: 'unavailable'; readonly reason: string };

interface AgentPackage {
  readonly name: string;
  readonly version: string;
  /** Cache folder name under `.cache/`. */
  readonly folder: string;
  /** The command to run, relative to the package directory. */
  readonly command: (packageDir: string) => readonly string[];
  /** A file that exists only once the package is usable. */
  readonly ready: (packageDir: string) => boolean;
  /** The step the blocked install script would have done. */
  readonly postinstall?: (packageDir: string) => Promise<unknown>;
}

/** Without the `npm_*` variables an enclosing `npm run` / `npx` sets (workspace, prefix …). */
export function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
  );
}

/** Claude Code's placeholder `bin/claude.exe` is a few hundred bytes; the real binary is large. */
const claudeBinary = (dir: string) => path.join(dir, 'bin', 'claude.exe');

const CLAUDE_CODE: AgentPackage = {
  name: '@anthropic-ai/claude-code',
  version: CLAUDE_CODE_VERSION,
  folder: 'claude-code',
  command: (dir) => [claudeBinary(dir)],
  ready: (dir) => existsSync(claudeBinary(dir)) && statSync(claudeBinary(dir)).size > 1_000_000,
  postinstall: (dir) => run(process.execPath, ['install.cjs'], { cwd: dir, timeout: 120_000 }),
};

const CODEX: AgentPackage = {
  name: '@openai/codex',
  version: CODEX_VERSION,
  folder: 'codex',
  command: (dir) => [process.execPath, path.join(dir, 'bin', 'codex.js')],
  ready: (dir) => existsSync(path.join(dir, 'bin', 'codex.js')),
};

const qwenEntry = (dir: string) => path.join(dir, 'cli-entry.js');

const QWEN_CODE: AgentPackage = {
  name: '@qwen-code/qwen-code',
  version: QWEN_CODE_VERSION,
  folder: 'qwen-code',
  command: (dir) => [process.execPath, qwenEntry(dir)],
  ready: (dir) => existsSync(qwenEntry(dir)),
};

async function versionOf(command: readonly string[]): Promise<string> {
  const [file = '', ...args] = command;
  const { stdout } = await run(file, [...args, '--version'], { timeout: 30_000 });
  return stdout.trim();
}

async function installAgent(agent: AgentPackage): Promise<AgentInstall> {
  const cache = path.join(CACHE_ROOT, agent.folder);
  const dir = path.join(cache, 'node_modules', ...agent.name.split('/'));
  const command = agent.command(dir);
  try {
    if (!agent.ready(dir) || !(await versionOf(command)).includes(agent.version)) {
      await mkdir(cache, { recursive: true });
      const args = ['install', '--prefix', cache, '--ignore-scripts', '--no-audit', '--no-fund'];
      await run('npm', [...args, '--no-save', `${agent.name}@${agent.version}`], {
        cwd: cache,
        env: cleanEnv(),
        timeout: 300_000,
      });
      await agent.postinstall?.(dir);
    }
    if (!agent.ready(dir)) return { kind: 'unavailable', reason: 'not usable after install' };
    const version = await versionOf(command);
    if (!version.includes(agent.version)) {
      return { kind: 'unavailable', reason: `unexpected version '${version}'` };
    }
    return { kind: 'installed', command };
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr;
    const detail =
      typeof stderr === 'string' ? stderr.split('\n').find((l) => l.includes('ERR')) : '';
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return { kind: 'unavailable', reason: (detail || message) ?? 'install failed' };
  }
}

export const installClaudeCode = (): Promise<AgentInstall> => installAgent(CLAUDE_CODE);
export const installCodex = (): Promise<AgentInstall> => installAgent(CODEX);
export const installQwenCode = (): Promise<AgentInstall> => installAgent(QWEN_CODE);
