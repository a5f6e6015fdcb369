import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FilePromptResolver } from './FilePromptResolver.js';
import { PromptFileError } from './PromptFileError.js';

let root: string;
let userDir: string;
let baseDir: string;

beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'dense-prompts-'));
  userDir = path.join(root, 'user');
  baseDir = path.join(root, 'defaults');
  await mkdir(userDir);
  await mkdir(baseDir);
  await writeFile(path.join(baseDir, 'compression.md'), 'DEFAULT');
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await rm(root, { recursive: true, force: true });
});

async function rejection(promise: Promise<unknown>): Promise<PromptFileError> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PromptFileError);
  return error as PromptFileError;
}

describe('FilePromptResolver', () => {
  it('returns the shipped default when the user has no override', async () => {
    const resolver = new FilePromptResolver({ userPromptsDir: userDir });
    await expect(resolver.resolveFile(baseDir, 'compression.md', {})).resolves.toBe('DEFAULT');
  });

  it("prefers the user's override", async () => {
    await writeFile(path.join(userDir, 'compression.md'), 'OVERRIDE');
    const resolver = new FilePromptResolver({ userPromptsDir: userDir });
    await expect(resolver.resolveFile(baseDir, 'compression.md', {})).resolves.toBe('OVERRIDE');
  });

  it('uses <DENSE_HOME>/prompts by default', async () => {
    vi.stubEnv('DENSE_HOME', root);
    await mkdir(path.join(root, 'prompts'));
    await writeFile(path.join(root, 'prompts', 'compression.md'), 'FROM HOME');
    const resolver = new FilePromptResolver();
    expect(resolver.userPromptsDir).toBe(path.join(root, 'prompts'));
    await expect(resolver.resolveFile(baseDir, 'compression.md', {})).resolves.toBe('FROM HOME');
  });

  it('names the file and both places looked when it is missing', async () => {
    const resolver = new FilePromptResolver({ userPromptsDir: userDir });
    const error = await rejection(resolver.resolveFile(baseDir, 'other.md', {}));
    expect(error.code).toBe('PROMPT_NOT_FOUND');
    expect(error.relativePath).toBe('other.md');
    expect(error.triedPaths).toEqual([
      path.join(userDir, 'other.md'),
      path.join(baseDir, 'other.md'),
    ]);
    expect(error.message).toContain(path.join(userDir, 'other.md'));
    expect(error.message).toContain(path.join(baseDir, 'other.md'));
  });

  it('treats a missing user directory as "no override"', async () => {
    const resolver = new FilePromptResolver({ userPromptsDir: path.join(root, 'absent') });
    await expect(resolver.resolveFile(baseDir, 'compression.md', {})).resolves.toBe('DEFAULT');
  });

  it('reports an unreadable override instead of silently using the default', async () => {
    await mkdir(path.join(userDir, 'compression.md'));
    const resolver = new FilePromptResolver({ userPromptsDir: userDir });
    const error = await rejection(resolver.resolveFile(baseDir, 'compression.md', {}));
    expect(error.code).toBe('PROMPT_UNREADABLE');
    expect(error.message).toContain(path.join(userDir, 'compression.md'));
    expect(error.cause).toBeDefined();
  });

  it('reports a failing reader with the path it was reading', async () => {
    const denied = Object.assign(new Error('permission denied'), { code: 'EACCES' });
    const resolver = new FilePromptResolver({
      userPromptsDir: userDir,
      readTextFile: () => Promise.reject(denied),
    });
    const error = await rejection(resolver.resolveFile(baseDir, 'compression.md', {}));
    expect(error.code).toBe('PROMPT_UNREADABLE');
    expect(error.cause).toBe(denied);
  });

  it('rejects an empty override', async () => {
    await writeFile(path.join(userDir, 'compression.md'), ' \n');
    const resolver = new FilePromptResolver({ userPromptsDir: userDir });
    const error = await rejection(resolver.resolveFile(baseDir, 'compression.md', {}));
    expect(error.code).toBe('PROMPT_EMPTY');
    expect(error.message).toContain(path.join(userDir, 'compression.md'));
  });

  it.each([['../secret.md'], ['/etc/passwd'], [''], ['a/../../b.md']])(
    'rejects the path %j that would leave the prompts directory',
    async (relativePath) => {
      const resolver = new FilePromptResolver({ userPromptsDir: userDir });
      const error = await rejection(resolver.resolveFile(baseDir, relativePath, {}));
      expect(error.code).toBe('PROMPT_INVALID_PATH');
    },
  );

  it('resolves nested relative paths in both directories', async () => {
    await mkdir(path.join(baseDir, 'providers'));
    await writeFile(path.join(baseDir, 'providers', 'x.md'), 'NESTED');
    const resolver = new FilePromptResolver({ userPromptsDir: userDir });
    await expect(resolver.resolveFile(baseDir, 'providers/x.md', {})).resolves.toBe('NESTED');
  });
});
