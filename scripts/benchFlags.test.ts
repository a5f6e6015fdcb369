import { describe, expect, it } from 'vitest';
import { BenchOptionError, runBench, USAGE_EXIT_CODE } from './benchFlags.js';
import { parseProxyBenchOptions } from './proxy-bench/benchOptions.js';
import { parseBenchArgs } from './replay/benchArgs.js';

const defaults = { corpus: '/corpus', workers: 2 };

/** What an entry point run by `runBench` prints and exits with. */
async function exitOf(main: () => Promise<number>): Promise<{ code: number; printed: string[] }> {
  const printed: string[] = [];
  let code = -1;
  await runBench(main, { exit: (c) => (code = c), error: (message) => printed.push(message) });
  return { code, printed };
}

describe('bench flags shared by bench:replay and bench:proxy', () => {
  it('#24.2 1m, 400k and 1500000 read the same as a replay limit and as a proxy window', () => {
    for (const [text, tokens] of [
      ['1m', 1_000_000],
      ['400k', 400_000],
      ['1500000', 1_500_000],
    ] as const) {
      expect(parseBenchArgs(['--limits', text], defaults).limits).toEqual([tokens]);
      expect(parseProxyBenchOptions(['--window', text]).window).toBe(tokens);
    }
    expect(parseBenchArgs(['--limits', '1m,400k,1500000'], defaults).limits).toEqual([
      400_000, 1_000_000, 1_500_000,
    ]);
  });

  it('#24.2 bad input is the same error in both benches: which flag, what it takes, a code', () => {
    const bad: (() => unknown)[] = [
      () => parseBenchArgs(['--limits', '1g'], defaults),
      () => parseBenchArgs(['--limits', '400k,'], defaults),
      () => parseBenchArgs(['--workers', '0'], defaults),
      () => parseBenchArgs(['--workers', 'two'], defaults),
      () => parseProxyBenchOptions(['--window', '1g']),
      () => parseProxyBenchOptions(['--workers', '0']),
    ];
    for (const run of bad) {
      expect(run).toThrow(BenchOptionError);
      expect(run).toThrow(/^bench:(replay|proxy): --(limits|workers|window) takes .*e\.g\. --/);
    }
    expect(parseBenchArgs(['--workers', '3'], defaults).workers).toBe(3);
  });

  it('#24.2 a bad flag exits with the usage code and prints its message only, no stack trace', async () => {
    const bad = await exitOf(() =>
      Promise.resolve(parseBenchArgs(['--limits', 'big'], defaults).workers),
    );
    expect(bad.code).toBe(USAGE_EXIT_CODE);
    expect(bad.printed).toHaveLength(1);
    expect(bad.printed[0]).toMatch(/^bench:replay: --limits takes context limits in tokens/);
    expect(bad.printed[0]).not.toMatch(/\n\s+at /);
    const failed = await exitOf(() => Promise.reject(new Error('corpus unreadable')));
    expect(failed).toEqual({ code: 1, printed: ['corpus unreadable'] });
    expect(await exitOf(() => Promise.resolve(0))).toEqual({ code: 0, printed: [] });
  });
});
