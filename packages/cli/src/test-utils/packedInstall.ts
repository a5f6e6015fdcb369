/**
 * For the packed-install end-to-end test: packs the CLI as `npm run pack:cli` does (the build
 * itself is `ensureBuilt`'s job) and installs the tarball with `npm install -g` into a temporary
 * prefix, as a user would. Resolves to the installed `dense`, or to why it could not be installed
 * when the npm registry cannot be reached (the test then skips with that one line); any other
 * failure throws. The caller removes `base`.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './builtBinary.js';
import { cleanEnv } from './installAgentCli.js';

const run = promisify(execFile);

export interface InstalledCli {
  readonly kind: 'installed';
  /** Temporary folder holding the tarball, the prefix and a home for the installed CLI. */
  readonly base: string;
  readonly prefix: string;
  /** The `dense` executable npm linked into the prefix (POSIX layout). */
  readonly bin: string;
  /** Paths inside the tarball, relative to its `package/` folder. */
  readonly files: readonly string[];
  readonly packSeconds: number;
  readonly installSeconds: number;
}

export type PackedInstall =
  InstalledCli | { readonly kind: 'unavailable'; readonly reason: string };

const NETWORK_ERROR = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH)\b/;

const secondsSince = (start: number): number => Math.round((Date.now() - start) / 100) / 10;

async function pack(outDir: string): Promise<string> {
  const tsx = path.join(REPO_ROOT, 'node_modules/tsx/dist/cli.mjs');
  const script = ['--tsconfig', 'scripts/tsconfig.json', 'scripts/pack-cli.ts', '--out', outDir];
  const { stdout } = await run(process.execPath, [tsx, ...script], {
    cwd: REPO_ROOT,
    env: cleanEnv(),
    timeout: 300_000,
  });
  return stdout.trim();
}

async function listTarball(tarball: string): Promise<string[]> {
  const { stdout } = await run('tar', ['-tzf', tarball], { maxBuffer: 16 * 1024 * 1024 });
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => line.replace(/^package\//, ''));
}

/**
 * `npm install -g` without install scripts: Dense has none, and the repository allows none.
 * `--prefer-offline`: what npm's cache holds (after `npm ci`, every dependency) is not asked of the
 * registry again (install 35 s → 14 s); anything missing still comes from the registry.
 */
async function install(tarball: string, prefix: string): Promise<void> {
  const args = ['install', '--global', '--prefix', prefix, '--ignore-scripts', '--no-audit'];
  await run('npm', [...args, '--prefer-offline', '--no-fund', tarball], {
    env: cleanEnv(),
    timeout: 300_000,
  });
}

export async function installPackedCli(): Promise<PackedInstall> {
  const base = await mkdtemp(path.join(tmpdir(), 'dense-packed-'));
  try {
    return await packAndInstall(base);
  } catch (error) {
    await rm(base, { recursive: true, force: true });
    const stderr = (error as { stderr?: unknown }).stderr;
    const network = typeof stderr === 'string' ? NETWORK_ERROR.exec(stderr) : null;
    if (network === null) throw error;
    return { kind: 'unavailable', reason: `the npm registry is unreachable (${network[1]})` };
  }
}

async function packAndInstall(base: string): Promise<InstalledCli> {
  const prefix = path.join(base, 'prefix');
  let started = Date.now();
  const tarball = await pack(path.join(base, 'pack'));
  const packSeconds = secondsSince(started);
  const files = await listTarball(tarball);
  started = Date.now();
  await install(tarball, prefix);
  return {
    kind: 'installed',
    base,
    prefix,
    bin: path.join(prefix, 'bin/dense'),
    files,
    packSeconds,
    installSeconds: secondsSince(started),
  };
}
