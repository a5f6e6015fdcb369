import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { BenchOptionError, parseTokens } from '../benchFlags.js';
import {
  DEFAULT_LENGTHS,
  parseLengthBenchOptions,
  parseProxyBenchOptions,
  parseWindow,
} from './benchOptions.js';

function failure(run: () => unknown): BenchOptionError {
  try {
    run();
  } catch (error) {
    if (error instanceof BenchOptionError) return error;
    throw error;
  }
  throw new Error('expected a BenchOptionError');
}

describe('proxy bench flags', () => {
  it('#24.5 --window takes the client window as 1m, 200k, 1.5M or a plain count', () => {
    expect(parseWindow('1m')).toBe(1_000_000);
    expect(parseWindow('1M')).toBe(1_000_000);
    expect(parseWindow('200k')).toBe(200_000);
    expect(parseWindow('1.5m')).toBe(1_500_000);
    expect(parseWindow('400_000')).toBe(400_000);
    expect(parseProxyBenchOptions(['--window', '1m', '--only', 'codex'])).toEqual({
      corpus: undefined,
      only: 'codex',
      out: undefined,
      workers: 1,
      window: 1_000_000,
      workingBudget: undefined,
    });
    expect(parseProxyBenchOptions([]).window).toBeUndefined();
  });

  it('#24.5 a bad --window, --workers or a flag without its value is an actionable error with a code', () => {
    for (const bad of ['abc', '0', '50k', '1g', '-1m', '']) {
      const error = failure(() => parseWindow(bad));
      expect(error.code).toBe('BENCH_OPTION_INVALID');
      expect(error.message).toContain('--window 1m');
    }
    expect(failure(() => parseProxyBenchOptions(['--window'])).message).toContain(
      '--window needs a value',
    );
    expect(failure(() => parseProxyBenchOptions(['--window', '--out', 'x'])).code).toBe(
      'BENCH_OPTION_INVALID',
    );
    expect(failure(() => parseProxyBenchOptions(['--workers', 'two'])).message).toContain(
      '--workers takes a whole number',
    );
    expect(parseProxyBenchOptions(['--workers', '3']).workers).toBe(3);
  });

  it('#24.5 --working-budget gives the proxy a budget in tokens, or off', () => {
    expect(parseProxyBenchOptions(['--working-budget', '60k']).workingBudget).toBe(60_000);
    expect(parseProxyBenchOptions(['--working-budget', 'off']).workingBudget).toBe('off');
    expect(failure(() => parseProxyBenchOptions(['--working-budget', 'some'])).message).toContain(
      '--working-budget takes tokens or off',
    );
  });

  it('#33.6 --sent names the directory for what each side sent; absent, nothing is written', () => {
    expect(parseProxyBenchOptions([]).sent).toBeUndefined();
    expect(parseProxyBenchOptions(['--sent', '/tmp/sent', '--only', 'codex'])).toMatchObject({
      sent: '/tmp/sent',
      only: 'codex',
    });
    for (const argv of [['--sent'], ['--sent', '--window', '1m']]) {
      const error = failure(() => parseProxyBenchOptions(argv));
      expect(error.code).toBe('BENCH_OPTION_INVALID');
      expect(error.message).toContain('--sent needs a value');
    }
  });

  it('#24.5 --lengths takes increasing token counts; 100k, 200k, 400k, 800k by default', () => {
    expect(parseLengthBenchOptions([]).lengths).toEqual([...DEFAULT_LENGTHS]);
    expect(parseLengthBenchOptions(['--lengths', '50k,120000,1m'])).toEqual({
      out: undefined,
      lengths: [50_000, 120_000, 1_000_000],
    });
    for (const bad of ['200k,100k', '100k,,200k', 'lots', '100k,100k']) {
      expect(failure(() => parseLengthBenchOptions(['--lengths', bad])).message).toContain(
        '--lengths takes increasing token counts',
      );
    }
  });

  test.prop([fc.integer({ min: 1, max: 10_000_000 })])(
    '#24.5 a count reads back as itself, in thousands (k) and millions (m)',
    (n) => {
      expect(parseTokens(String(n))).toBe(n);
      expect(parseTokens(`${n}k`)).toBe(n * 1_000);
      expect(parseTokens(`${n}M`)).toBe(n * 1_000_000);
    },
  );
});
