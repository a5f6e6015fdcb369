import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BenchOptionError } from '../benchFlags.js';
import { parseBenchArgs } from './benchArgs.js';

const defaults = { corpus: '/corpus', workers: 2 };
const repoRoot = path.resolve(import.meta.dirname, '../..');

describe('bench:replay arguments', () => {
  it('#12 --json <file> is parsed to an absolute path; --no-docs and the rest too', () => {
    const args = parseBenchArgs(['--json', 'runs.json', '--no-docs', '--workers', '3'], defaults);
    expect(args).toEqual({
      corpus: '/corpus',
      workers: 3,
      json: path.resolve('runs.json'),
      docs: false,
    });
    expect(parseBenchArgs([], defaults)).toEqual({ corpus: '/corpus', workers: 2, docs: true });
  });

  it('#33.6 --sent <dir> is parsed to an absolute path and keeps the docs on; without a value it is a usage error', () => {
    expect(parseBenchArgs(['--sent', 'out/sent'], defaults)).toEqual({
      corpus: '/corpus',
      workers: 2,
      docs: true,
      sent: path.resolve('out/sent'),
    });
    expect(() => parseBenchArgs(['--sent'], defaults)).toThrow(/--sent needs a value/);
  });

  it('#12 a flag without its value is a usage error, not a silent default', () => {
    expect(() => parseBenchArgs(['--json'], defaults)).toThrow(BenchOptionError);
    expect(() => parseBenchArgs(['--only', '--no-docs'], defaults)).toThrow(/--only needs a value/);
  });

  it('#12 `npm run bench:replay -- --json X` hands the flags to the bench, not to a chained command', () => {
    const pkg = JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const script = pkg.scripts['bench:replay'] ?? '';
    // npm appends `-- …` arguments to the end of the script line: it must end with the bench.
    expect(script).toMatch(/scripts\/bench-replay\.ts$/);
    expect(script).not.toMatch(/&&|;|\|/);
  });

  it('#23.4 --limits runs the window grid at the given context limits (k for thousands) and writes no docs', () => {
    expect(parseBenchArgs(['--limits', '200k,16000,32k,32000'], defaults)).toEqual({
      corpus: '/corpus',
      workers: 2,
      docs: false,
      limits: [16_000, 32_000, 200_000],
    });
    expect(() => parseBenchArgs(['--limits', '16k,big'], defaults)).toThrow(/--limits takes/);
    expect(() => parseBenchArgs(['--limits', '0'], defaults)).toThrow(BenchOptionError);
  });
});
