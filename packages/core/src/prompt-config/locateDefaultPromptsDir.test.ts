import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CORE_PACKAGE_NAME,
  DEFAULTS_SUBDIR,
  findPackageRoot,
  locateDefaultPromptsDir,
} from './locateDefaultPromptsDir.js';

let root: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'dense-locate-'));
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function fakePackage(name: string): Promise<string> {
  const pkg = path.join(root, 'node_modules', '@dense', 'core');
  await mkdir(path.join(pkg, 'dist', 'core'), { recursive: true });
  await mkdir(path.join(pkg, 'src', 'core'), { recursive: true });
  await writeFile(path.join(pkg, 'package.json'), JSON.stringify({ name }));
  return pkg;
}

describe('locateDefaultPromptsDir', () => {
  it('finds the same defaults from src and from dist', async () => {
    const pkg = await fakePackage(CORE_PACKAGE_NAME);
    const expected = path.join(pkg, DEFAULTS_SUBDIR);
    for (const dir of ['dist', 'src']) {
      const moduleUrl = pathToFileURL(path.join(pkg, dir, 'core', 'prompts.js')).href;
      expect(locateDefaultPromptsDir(moduleUrl)).toBe(expected);
    }
  });

  it('skips package.json files of other packages and broken ones on the way up', async () => {
    const pkg = await fakePackage(CORE_PACKAGE_NAME);
    await writeFile(path.join(pkg, 'dist', 'package.json'), JSON.stringify({ type: 'module' }));
    await writeFile(path.join(pkg, 'dist', 'core', 'package.json'), '{ not json');
    const moduleUrl = pathToFileURL(path.join(pkg, 'dist', 'core', 'prompts.js')).href;
    expect(locateDefaultPromptsDir(moduleUrl)).toBe(path.join(pkg, DEFAULTS_SUBDIR));
  });

  it('is undefined when no @dense/core package is above the module', async () => {
    const pkg = await fakePackage('something-else');
    const moduleUrl = pathToFileURL(path.join(pkg, 'dist', 'core', 'prompts.js')).href;
    expect(locateDefaultPromptsDir(moduleUrl)).toBeUndefined();
  });

  it('finds the real package from this source tree', () => {
    const found = findPackageRoot(import.meta.dirname, CORE_PACKAGE_NAME);
    expect(found).toBeDefined();
    expect(existsSync(path.join(found!, DEFAULTS_SUBDIR, 'compression.md'))).toBe(true);
  });
});
