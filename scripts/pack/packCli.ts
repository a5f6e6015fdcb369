/**
 * Packs the CLI into the one tarball a user installs with `npm install -g <tarball>`: the built CLI
 * with `@dense/core` inside it as a bundled dependency (core is not published), and core's
 * dependencies declared as the CLI's (publishedManifests.ts says why). The provider SDKs and the
 * other dependencies come from the npm registry at install time, at the versions both packages pin.
 *
 * npm cannot bundle a workspace package in place: the link to core lives in the repository's root
 * node_modules, not in packages/cli/node_modules, so `npm pack` of the workspace bundles nothing.
 * So each package is packed as npm would (its `files` list decides what ships), the CLI's tarball is
 * unpacked into a temporary folder with core's under its node_modules, and that folder is packed.
 * Needs the built `dist` folders (`npm run build`); runs no package scripts.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { PackError, publishedManifests, type WorkspaceManifest } from './publishedManifests.js';

const run = promisify(execFile);

export interface PackCliOptions {
  /** The repository root (holds packages/cli and packages/core). */
  readonly repoRoot: string;
  /** Where the tarball is written; created when missing. */
  readonly outDir: string;
}

export interface PackedCli {
  /** Absolute path of the tarball. */
  readonly tarball: string;
  /** Paths inside the tarball, relative to its `package/` folder. */
  readonly files: readonly string[];
}

interface NpmPackEntry {
  readonly filename: string;
  readonly files: readonly { readonly path: string }[];
  readonly bundled: readonly string[];
}

/** The environment without the `npm_*` variables an enclosing `npm run` sets. */
export function withoutNpmRunVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(env).filter(([name]) => !name.toLowerCase().startsWith('npm_')),
  );
}

async function npmPack(dir: string, destination: string): Promise<NpmPackEntry> {
  const args = ['pack', '--json', '--ignore-scripts', '--pack-destination', destination];
  let stdout: string;
  try {
    ({ stdout } = await run('npm', args, {
      cwd: dir,
      env: withoutNpmRunVariables(process.env),
      timeout: 120_000,
      maxBuffer: 64 * 1024 * 1024,
    }));
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new PackError('PACK_FAILED', `npm pack in ${dir} failed: ${message ?? ''}`);
  }
  const [entry] = JSON.parse(stdout) as NpmPackEntry[];
  if (entry === undefined) throw new PackError('PACK_FAILED', `npm pack in ${dir} packed nothing`);
  return entry;
}

async function unpack(tarball: string, into: string): Promise<void> {
  await mkdir(into, { recursive: true });
  await run('tar', ['-xzf', tarball, '-C', into, '--strip-components=1']);
}

async function readManifest(file: string): Promise<WorkspaceManifest> {
  return JSON.parse(await readFile(file, 'utf8')) as WorkspaceManifest;
}

async function writeManifest(file: string, manifest: WorkspaceManifest): Promise<void> {
  await writeFile(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

/** Packs the CLI with core bundled into `outDir`; throws a `PackError` with a stable code. */
export async function packCli(options: PackCliOptions): Promise<PackedCli> {
  const cliDir = path.join(options.repoRoot, 'packages/cli');
  const coreDir = path.join(options.repoRoot, 'packages/core');
  for (const dir of [cliDir, coreDir]) {
    if (!existsSync(path.join(dir, 'dist/index.js'))) {
      throw new PackError('NOT_BUILT', `${dir}/dist is missing: run npm run build first`);
    }
  }
  const work = await mkdtemp(path.join(tmpdir(), 'dense-pack-'));
  try {
    const core = await npmPack(coreDir, work);
    const cli = await npmPack(cliDir, work);
    const stage = path.join(work, 'stage');
    await unpack(path.join(work, cli.filename), stage);
    await unpack(path.join(work, core.filename), path.join(stage, 'node_modules/@dense/core'));
    const cliManifest = path.join(stage, 'package.json');
    const coreManifest = path.join(stage, 'node_modules/@dense/core/package.json');
    const manifests = publishedManifests(
      await readManifest(cliManifest),
      await readManifest(coreManifest),
    );
    await writeManifest(cliManifest, manifests.cli);
    await writeManifest(coreManifest, manifests.core);
    await mkdir(options.outDir, { recursive: true });
    const packed = await npmPack(stage, path.resolve(options.outDir));
    if (!packed.bundled.includes('@dense/core')) {
      throw new PackError('NOT_BUNDLED', 'npm pack of the staged CLI did not bundle @dense/core');
    }
    return {
      tarball: path.resolve(options.outDir, packed.filename),
      files: packed.files.map((file) => file.path),
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
