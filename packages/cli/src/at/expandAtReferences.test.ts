import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createUserMessage,
  findFileInclusions,
  formatFileInclusion,
  getText,
  HighDensityStrategy,
  type DensityConfig,
} from '@dense/core';
import { expandAtReferences } from './expandAtReferences.js';

let root: string;
let outside: string;

beforeEach(async () => {
  const base = await mkdtemp(path.join(tmpdir(), 'dense-at-'));
  root = path.join(base, 'ws');
  outside = path.join(base, 'outside');
  await mkdir(path.join(root, 'src', 'nested'), { recursive: true });
  await mkdir(outside);
  await writeFile(path.join(root, 'src', 'a.ts'), 'export const a = 1;\n');
  await writeFile(path.join(root, 'src', 'b.ts'), 'export const b = 2;\n');
  await writeFile(path.join(root, 'src', 'nested', 'c.ts'), 'export const c = 3;\n');
  await writeFile(path.join(root, 'my notes.md'), '# notes\n');
  await writeFile(path.join(root, 'logo.png'), Buffer.from([0x89, 0x50, 0x00, 0x01]));
  await writeFile(path.join(outside, 'secret.txt'), 'top secret\n');
});

afterEach(async () => {
  await rm(path.dirname(root), { recursive: true, force: true });
});

const expand = (prompt: string, limits = {}) =>
  expandAtReferences(prompt, { workspaceRoot: root, limits });

describe('expandAtReferences', () => {
  it('leaves a prompt without references as it is', async () => {
    expect(await expand('just a question')).toEqual({
      message: 'just a question',
      included: [],
      notices: [],
    });
  });

  it('inlines each file between its own marker pair after the prompt', async () => {
    const result = await expand('compare @src/a.ts with @src/b.ts');
    expect(result.message).toBe(
      'compare @src/a.ts with @src/b.ts\n\n' +
        `${formatFileInclusion('src/a.ts', 'export const a = 1;\n')}\n` +
        formatFileInclusion('src/b.ts', 'export const b = 2;\n'),
    );
    expect(findFileInclusions(result.message).map((s) => s.filePath)).toEqual([
      'src/a.ts',
      'src/b.ts',
    ]);
    expect(result.included).toEqual([
      { path: 'src/a.ts', lines: 1, totalLines: 1, truncated: false },
      { path: 'src/b.ts', lines: 1, totalLines: 1, truncated: false },
    ]);
  });

  it('expands globs to workspace-relative paths, one marker pair per file', async () => {
    const result = await expand('@src/**/*.ts');
    expect(findFileInclusions(result.message).map((s) => s.filePath)).toEqual([
      'src/a.ts',
      'src/b.ts',
      'src/nested/c.ts',
    ]);
  });

  it('reads quoted paths with spaces', async () => {
    const result = await expand('see @"my notes.md"');
    expect(result.included.map((f) => f.path)).toEqual(['my notes.md']);
  });

  it('includes a file referenced twice only once', async () => {
    const result = await expand('@src/a.ts and again @./src/a.ts');
    expect(findFileInclusions(result.message)).toHaveLength(1);
  });

  it('gives a clear notice instead of content for outside, missing, directory and binary', async () => {
    const result = await expand(
      `@../outside/secret.txt @${path.join(outside, 'secret.txt')} @nope.ts @src @logo.png @src/*.md`,
    );
    expect(result.included).toEqual([]);
    expect(result.notices).toEqual([
      `@../outside/secret.txt was not included: it is outside the workspace (${root}).`,
      `@${path.join(outside, 'secret.txt')} was not included: it is outside the workspace (${root}).`,
      '@nope.ts was not included: no such file.',
      '@src was not included: it is a directory (use @src/** for its files).',
      '@logo.png was not included: it is a binary file.',
      '@src/*.md matched no files.',
    ]);
    expect(result.message).not.toContain('top secret');
    expect(result.message).toContain('[@nope.ts was not included: no such file.]');
  });

  it('refuses a symlink that leads out of the workspace', async () => {
    await symlink(path.join(outside, 'secret.txt'), path.join(root, 'link.txt'));
    const result = await expand('@link.txt');
    expect(result.notices[0]).toContain('outside the workspace');
    expect(result.message).not.toContain('top secret');
  });

  it('caps a large file with a note inside its inclusion', async () => {
    const lines = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n');
    await writeFile(path.join(root, 'big.txt'), `${lines}\n`);
    const result = await expand('@big.txt', { maxFileLines: 10 });
    expect(result.included).toEqual([
      { path: 'big.txt', lines: 10, totalLines: 50, truncated: true },
    ]);
    const [span] = findFileInclusions(result.message);
    const inclusion = result.message.slice(span!.start, span!.end);
    expect(inclusion).toContain('line 10\n[Truncated: lines 1-10 of 50 of big.txt');
    expect(inclusion).not.toContain('line 11');
  });

  it('stops including once the per-message budget is used up', async () => {
    const result = await expand('@src/a.ts @src/b.ts', { maxTotalBytes: 25 });
    expect(result.included.map((f) => f.path)).toEqual(['src/a.ts']);
    expect(result.notices[0]).toContain('@src/b.ts was not included');
  });

  it('limits how many files a glob includes', async () => {
    const result = await expand('@src/**/*.ts', { maxGlobFiles: 2 });
    expect(result.included).toHaveLength(2);
    expect(result.notices).toEqual([
      '@src/**/*.ts matched more than 2 files; only the first 2 were included.',
    ]);
  });
});

describe('@ inclusions and high-density dedup', () => {
  const body = (name: string, value: number): string =>
    Array.from({ length: 8 }, (_, i) => `export const ${name}${i} = ${value + i};`).join('\n');

  beforeEach(async () => {
    await writeFile(path.join(root, 'src', 'a.ts'), body('a', 1));
    await writeFile(path.join(root, 'src', 'b.ts'), body('b', 1));
    await writeFile(path.join(root, 'src', 'nested', 'c.ts'), body('c', 1));
  });

  const config = (): DensityConfig => ({
    readWritePruning: true,
    fileDedupe: true,
    recencyPruning: false,
    recencyRetention: 3,
    workspaceRoot: root,
  });

  it('a file included again later is cut from the earlier message, its neighbour kept', async () => {
    const first = await expand('look at @src/a.ts and @src/b.ts');
    await writeFile(path.join(root, 'src', 'a.ts'), body('a', 100));
    const second = await expand('now @src/a.ts again');
    const history = [createUserMessage(first.message), createUserMessage(second.message)] as const;
    const result = new HighDensityStrategy().optimize(history, config());
    expect(result.metadata.dedup).toBe(1);
    const edited = result.replacements.get(0);
    expect(edited).toBeDefined();
    const text = getText(edited!);
    expect(text).toContain('look at @src/a.ts and @src/b.ts');
    expect(findFileInclusions(text).map((s) => s.filePath)).toEqual(['src/b.ts']);
    expect(text).not.toContain('export const a0 = 1;');
    expect(text).toContain('export const b0 = 1;');
    expect(getText(history[1])).toContain('a0 = 100;');
    expect(result.replacements.has(1)).toBe(false);
  });

  it('#12.1 @run1.log then @run2.log, both with a "--- Summary ---" line: run1 is not cut', async () => {
    const log = (run: string) =>
      `${run} started\n--- Summary ---\n${`case ${run} passed in 12 ms\n`.repeat(6)}`;
    await writeFile(path.join(root, 'run1.log'), log('run1'));
    await writeFile(path.join(root, 'run2.log'), log('run2'));
    const first = await expand('look at @run1.log');
    const second = await expand('and @run2.log');
    const result = new HighDensityStrategy().optimize(
      [createUserMessage(first.message), createUserMessage(second.message)],
      config(),
    );
    expect(result.metadata.dedup).toBe(0);
    expect(result.replacements.size).toBe(0);
    expect(findFileInclusions(first.message).map((s) => s.filePath)).toEqual(['run1.log']);
  });

  it('two stale inclusions in one message are both cut without corrupting the text', async () => {
    const first = await expand('@src/a.ts @src/b.ts @src/nested/c.ts');
    const second = await expand('@src/a.ts @src/nested/c.ts');
    const result = new HighDensityStrategy().optimize(
      [createUserMessage(first.message), createUserMessage(second.message)],
      config(),
    );
    expect(result.metadata.dedup).toBe(2);
    const text = getText(result.replacements.get(0)!);
    expect(findFileInclusions(text).map((s) => s.filePath)).toEqual(['src/b.ts']);
    expect(text).toContain(formatFileInclusion('src/b.ts', `${body('b', 1)}\n`));
    expect(text.match(/\[Earlier copy of src\/(a|nested\/c)\.ts removed/g)).toHaveLength(2);
  });
});
