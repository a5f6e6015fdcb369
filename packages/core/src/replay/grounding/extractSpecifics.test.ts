import { describe, expect, it } from 'vitest';
import {
  extractSpecifics,
  occursIn,
  type Specific,
  type SpecificKind,
} from './extractSpecifics.js';

function texts(text: string, kind: SpecificKind): string[] {
  return extractSpecifics(text)
    .filter((s) => s.kind === kind)
    .map((s) => s.text);
}

describe('#25.3 extractSpecifics', () => {
  it('#25.3 paths: with slashes, relative and absolute, and bare file names', () => {
    const text = 'Look at src/core/widgetStore.ts and /srv/app/config/main.yaml, then setup.py.';
    expect(texts(text, 'path')).toEqual([
      'src/core/widgetStore.ts',
      '/srv/app/config/main.yaml',
      'setup.py',
    ]);
  });

  it('#25.3 paths: no URL pieces, no sentence-ending dot', () => {
    expect(texts('see https://example.test/a/b and lib/util.', 'path')).toEqual(['lib/util']);
  });

  it('#25.3 line references: file:line, file:line:col and the traceback form', () => {
    const text = 'failed at src/parse.ts:142:7 and File "/w/app/models.py", line 88, in load';
    const refs = extractSpecifics(text).filter((s) => s.kind === 'line-ref');
    expect(refs.map((s) => [s.text, s.file, s.line])).toEqual([
      ['/w/app/models.py:88', '/w/app/models.py', 88],
      ['src/parse.ts:142', 'src/parse.ts', 142],
    ]);
    expect(texts(text, 'path')).toEqual([]);
    expect(texts(text, 'number')).toEqual([]);
  });

  it('#25.3 test names: pytest, Go and suffix forms', () => {
    const text = 'run -k test_merge_keeps_order, then TestParseHeader and codec_test';
    expect(texts(text, 'test-name')).toEqual([
      'test_merge_keeps_order',
      'TestParseHeader',
      'codec_test',
    ]);
  });

  it('#25.3 error strings: class names, errno and compiler codes, quoted messages', () => {
    const text =
      'Got TypeError and ENOENT, tsc said TS2345; message "Cannot find module \'./gone\'"';
    expect(texts(text, 'error')).toEqual([
      'TypeError',
      'ENOENT',
      'TS2345',
      "Cannot find module './gone'",
    ]);
  });

  it('#25.3 identifiers: camelCase, PascalCase, snake_case; not plain words', () => {
    const text =
      'The parseHeader function calls HttpClient with max_retries; Plain words stay out.';
    expect(texts(text, 'identifier')).toEqual(['parseHeader', 'HttpClient', 'max_retries']);
  });

  it('#25.3 numbers of four or more digits only, not inside names or decimals', () => {
    const text = 'port 8080, pid 123, issue 40213, v1.20345, abc12345';
    expect(texts(text, 'number')).toEqual(['8080', '40213']);
  });

  it('#25.3 each specific once', () => {
    expect(extractSpecifics('fooBar fooBar fooBar')).toEqual([
      { kind: 'identifier', text: 'fooBar' },
    ]);
  });
});

describe('#25.3 occursIn', () => {
  const id: Specific = { kind: 'identifier', text: 'fooBar' };
  const num: Specific = { kind: 'number', text: '8080' };
  const path: Specific = { kind: 'path', text: 'src/a.ts' };
  const ref: Specific = { kind: 'line-ref', text: 'app.py:12', file: 'app.py', line: 12 };

  it('#25.3 names and numbers as whole tokens only', () => {
    expect(occursIn(id, 'call fooBar()')).toBe(true);
    expect(occursIn(id, 'call fooBarBaz()')).toBe(false);
    expect(occursIn(num, 'port 18080')).toBe(false);
    expect(occursIn(num, 'port 8080.')).toBe(true);
  });

  it('#25.3 a relative path inside an absolute one', () => {
    expect(occursIn(path, '/repo/src/a.ts')).toBe(true);
  });

  it('#25.3 a line reference as file:line or as a traceback line', () => {
    expect(occursIn(ref, 'at app.py:12')).toBe(true);
    expect(occursIn(ref, 'File "/w/app.py", line 12, in run')).toBe(true);
    expect(occursIn(ref, 'File "/w/app.py", line 120, in run')).toBe(false);
  });
});
