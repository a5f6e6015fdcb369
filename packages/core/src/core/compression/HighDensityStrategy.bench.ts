/**
 * optimize() and compress() on synthetic sessions of 1k, 10k and 50k entries (~400 bytes each:
 * reads, edits, shell output, searches, `@` inclusions). Run: npx vitest bench --run <this file>.
 */
import { bench, describe } from 'vitest';
import { HighDensityStrategy } from './HighDensityStrategy.js';
import type { CompressionContext, DensityConfig } from './types.js';
import { applyDensityResultToArray } from './density/optimize/applyDensityResultToArray.js';
import { historyBytes, syntheticHistory } from './density/test-utils/syntheticHistory.js';
import { simulateSession } from './density/test-utils/simulateSession.js';
import { makeCompressionContext } from '../../test-utils/compressionContext.js';
import { charEstimateTokenCounter } from '../../services/history/TokenCounter.js';
import type { IContent } from '../../services/history/IContent.js';

const SIZES = [1_000, 10_000, 50_000] as const;
const strategy = new HighDensityStrategy();
const config: DensityConfig = {
  readWritePruning: true,
  fileDedupe: true,
  recencyPruning: false,
  recencyRetention: 3,
  workspaceRoot: '/workspace',
};

const histories = new Map<number, IContent[]>(SIZES.map((n) => [n, syntheticHistory(n)]));
const history = (n: number) => histories.get(n) as IContent[];
/** The per-turn case: everything stale was pruned on earlier turns. */
const steady = new Map(
  SIZES.map((n) => [
    n,
    applyDensityResultToArray(history(n), strategy.optimize(history(n), config)),
  ]),
);

/** A compression context at 90 % of its context limit (chars / 4 tokens, counts cached). */
async function contextFor(n: number, fill: number, preserve: number): Promise<CompressionContext> {
  const tokens = Math.ceil(historyBytes(history(n)) / 4);
  return makeCompressionContext({
    history: history(n),
    tokenCounter: charEstimateTokenCounter,
    settings: {
      'context-limit': Math.ceil(tokens / fill),
      'compression.preserveThreshold': preserve,
    },
  });
}
const summarize = new Map<number, CompressionContext>();
const drop = new Map<number, CompressionContext>();
for (const n of SIZES) {
  summarize.set(n, await contextFor(n, 0.9, 0.4));
  drop.set(n, await contextFor(n, 2, 0.2));
}

/** Prior-art A17: how often and how deep density rewrites the prefix, replayed turn by turn. */
function reportCacheImpact(): void {
  const session = syntheticHistory(2_000, 7);
  for (const recency of [false, true]) {
    const stats = simulateSession(session, { ...config, recencyPruning: recency });
    const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
    console.log(
      `[cache impact, 2000-entry synthetic session, recency ${recency ? 'on' : 'off'}] ` +
        `rewrites per 100 tool calls ${((100 * stats.rewrites) / stats.toolCalls).toFixed(1)}, ` +
        `mean invalidated share ${pct(stats.meanInvalidatedShare, 1)}, ` +
        `input ${pct(stats.inputChars.density, stats.inputChars.none)} of none, ` +
        `cache-weighted ${pct(stats.cacheWeighted.density, stats.cacheWeighted.none)} of none`,
    );
  }
}
reportCacheImpact();

describe('optimize() — fresh history (every stale read still present)', () => {
  for (const n of SIZES) {
    bench(`${n} entries`, () => {
      strategy.optimize(history(n), config);
    });
  }
});

/**
 * Cold: every call, file effect and inclusion is seen for the first time. Per-block caches make
 * the fresh-history case above warm after its first iteration, so each iteration here gets its own
 * newly generated history (same content, new objects), made in the task's setup (not timed) and
 * dropped after it.
 */
const COLD_SIZES = [10_000, 50_000, 100_000] as const;
const COLD_RUNS = 3;

function coldBench(n: number, densityConfig: DensityConfig): void {
  let pool: IContent[][] = [];
  let next = 0;
  bench(
    `${n} entries`,
    () => {
      strategy.optimize(pool[next++ % pool.length] as IContent[], densityConfig);
    },
    {
      iterations: COLD_RUNS,
      time: 0,
      warmupIterations: 1,
      warmupTime: 0,
      setup: (_task, mode) => {
        pool = Array.from({ length: mode === 'warmup' ? 1 : COLD_RUNS }, () => syntheticHistory(n));
        next = 0;
      },
      teardown: () => {
        pool = [];
      },
    },
  );
}

describe('optimize() — cold: a history never seen before (no per-block caches)', () => {
  for (const n of COLD_SIZES) coldBench(n, config);
});

describe('optimize() — shellFileOps on (shell reads/writes join READ→WRITE)', () => {
  for (const n of SIZES) {
    bench(`${n} entries`, () => {
      strategy.optimize(history(n), { ...config, shellFileOps: true });
    });
  }
});

describe('optimize() — shellFileOps on, cold', () => {
  for (const n of COLD_SIZES) coldBench(n, { ...config, shellFileOps: true });
});

describe('optimize() — steady state (earlier turns already pruned)', () => {
  for (const n of SIZES) {
    bench(`${n} entries`, () => {
      strategy.optimize(steady.get(n) as IContent[], config);
    });
  }
});

describe('optimize() — all passes on, recency retention 3', () => {
  for (const n of SIZES) {
    bench(`${n} entries`, () => {
      strategy.optimize(history(n), { ...config, recencyPruning: true });
    });
  }
});

describe('compress() — summaries reach the target', () => {
  for (const n of SIZES) {
    bench(`${n} entries`, async () => {
      await strategy.compress(summarize.get(n) as CompressionContext);
    });
  }
});

describe('compress() — summaries not enough, oldest entries dropped', () => {
  for (const n of SIZES) {
    bench(`${n} entries`, async () => {
      await strategy.compress(drop.get(n) as CompressionContext);
    });
  }
});
