import { describe, expect, it } from 'vitest';
import {
  concreteReadManyPaths,
  displayPath,
  extractFilePath,
  isGlobPattern,
  resolveToolPath,
} from './toolParameters.js';

describe('tool parameters', () => {
  it('REQ-HD-005.4 reads file_path, then absolute_path, then path', () => {
    expect(extractFilePath({ file_path: 'a', absolute_path: 'b', path: 'c' })).toBe('a');
    expect(extractFilePath({ absolute_path: 'b', path: 'c' })).toBe('b');
    expect(extractFilePath({ path: 'c' })).toBe('c');
    expect(extractFilePath({ file_path: null, path: 'c' })).toBe('c');
    expect(extractFilePath({ file_path: undefined, absolute_path: 'b' })).toBe('b');
  });

  it.each([
    null,
    undefined,
    'a.ts',
    42,
    true,
    [],
    ['a.ts'],
    {},
    { file: 'a.ts' },
    { file_path: 42, path: 'a.ts' },
    { file_path: '' },
    { path: {} },
  ])('REQ-HD-013.5 finds no path in %j (and does not throw)', (params) => {
    expect(extractFilePath(params)).toBeUndefined();
  });

  it('REQ-HD-005.5 REQ-HD-005.11 resolves against the workspace root without case folding', () => {
    expect(resolveToolPath('src/a.ts', '/ws')).toBe('/ws/src/a.ts');
    expect(resolveToolPath('./src/../src/a.ts', '/ws')).toBe('/ws/src/a.ts');
    expect(resolveToolPath('/abs/a.ts', '/ws')).toBe('/abs/a.ts');
    expect(resolveToolPath('SRC/A.ts', '/ws')).not.toBe(resolveToolPath('src/a.ts', '/ws'));
  });

  it('REQ-HD-005.9 read_many_files paths are concrete only without globs or include patterns', () => {
    expect(concreteReadManyPaths({ paths: ['a.ts', 'src/b.ts'] })).toEqual(['a.ts', 'src/b.ts']);
    expect(concreteReadManyPaths({ paths: ['a.ts'], include: [] })).toEqual(['a.ts']);
    for (const params of [
      { paths: ['*.ts'] },
      { paths: ['a.ts', 'src/**'] },
      { paths: ['a?.ts'] },
      { paths: ['a.ts'], include: ['b.ts'] },
      { paths: [] },
      { paths: ['a.ts', ''] },
      { paths: ['a.ts', null] },
      { paths: 'a.ts' },
      null,
    ]) {
      expect(concreteReadManyPaths(params)).toBeUndefined();
    }
  });

  it('treats *, ?, [ and { as glob syntax', () => {
    expect(['*.ts', 'a?.ts', '**/x', '[ab].ts', '{a,b}.ts'].every(isGlobPattern)).toBe(true);
    expect(isGlobPattern('src/a-b_c.d.ts')).toBe(false);
  });

  it('displays paths relative to the workspace root when inside it', () => {
    expect(displayPath('/ws/src/a.ts', '/ws')).toBe('src/a.ts');
    expect(displayPath('./src/a.ts', '/ws')).toBe('src/a.ts');
    expect(displayPath('/ws', '/ws')).toBe('.');
    expect(displayPath('/other/a.ts', '/ws')).toBe('/other/a.ts');
    expect(displayPath('../x.ts', '/ws/pkg')).toBe('/ws/x.ts');
    expect(displayPath('..foo/a.ts', '/ws')).toBe('..foo/a.ts');
    expect(displayPath('..', '/ws/pkg')).toBe('/ws');
  });
});
