/**
 * Top-down truncation at 10k and 100k entries: the strategy (one cached estimate per entry,
 * subtract while dropping) against the naive loop that re-estimates the whole remainder after
 * every drop (prior-art A.7). Both cut at the same safe points and must agree on the result.
 *
 * The naive loop at 100k entries takes about ten minutes on a 2-core machine, so it runs only with
 * DENSE_BENCH_SLOW=1 (`DENSE_BENCH_SLOW=1 npx vitest bench --run <this file>`).
 */
import { bench, describe } from 'vitest';
import type { IContent } from '../../services/history/IContent.js';
import { charEstimateTokenCounter } from '../../services/history/TokenCounter.js';
import { ai, human, makeCompressionContext, toolRoundTrip } from '../../test-utils/index.js';
import { topDownTargetTokens } from './planTopDownTruncation.js';
import { safeSplitPoints } from './toolCallBoundary.js';
import { TopDownTruncationStrategy } from './TopDownTruncationStrategy.js';
import type { CompressionContext } from './types.js';

/** A session of `n` entries: asks, answers and shell round trips of varying size. */
function session(n: number): IContent[] {
  const history: IContent[] = [];
  for (let i = 0; history.length < n; i++) {
    const words = `word${i} `.repeat(10 + (i % 40));
    if (i % 3 === 2 && history.length + 2 <= n) {
      history.push(...toolRoundTrip(`c${i}`, 'run_shell_command', { command: `ls ${i}` }, words));
    } else {
      history.push(i % 2 === 0 ? human(words) : ai(words));
    }
  }
  return history;
}

/** A context whose history sits at the default 0.85 trigger (so ~40% of tokens must go). */
async function contextAtThreshold(n: number): Promise<CompressionContext> {
  const history = session(n);
  const probe = await makeCompressionContext({ history, tokenCounter: charEstimateTokenCounter });
  const contextLimit = Math.ceil(probe.currentTokenCount / 0.85);
  return { ...probe, ...(await withLimit(history, contextLimit)) };
}

async function withLimit(history: readonly IContent[], contextLimit: number) {
  return makeCompressionContext({
    history,
    tokenCounter: charEstimateTokenCounter,
    settings: { 'context-limit': contextLimit },
  });
}

/** The quadratic way: drop one (safe) step, then re-estimate everything that is left. */
async function naiveTruncate(context: CompressionContext): Promise<number> {
  const { history } = context;
  const target = topDownTargetTokens(0.85, context.settings.contextLimit);
  const safe = safeSplitPoints(history);
  let start = 0;
  let remaining = await context.estimateTokens(history);
  while (remaining > target && start < history.length - 2) {
    start++;
    while (!safe[start] && start < history.length - 2) start++;
    remaining = await context.estimateTokens(history.slice(start));
  }
  return start;
}

const SLOW = process.env.DENSE_BENCH_SLOW === '1';
const strategy = new TopDownTruncationStrategy();
const contexts = new Map<number, CompressionContext>();
for (const n of [10_000, 100_000]) {
  const context = await contextAtThreshold(n);
  if (n === 10_000 || SLOW) {
    const result = await strategy.compress(context);
    const naive = await naiveTruncate(context);
    if (result.metadata.entriesDropped !== naive) {
      throw new Error(`disagree at ${n}: ${result.metadata.entriesDropped} vs naive ${naive}`);
    }
  }
  contexts.set(n, context);
}

const ONCE = { iterations: 1, time: 0, warmupIterations: 0, warmupTime: 0 };

for (const [n, context] of contexts) {
  describe(`top-down truncation, ${n} entries`, () => {
    bench('TopDownTruncationStrategy (per-entry counts, subtract)', async () => {
      await strategy.compress(context);
    });
    bench.skipIf(n > 10_000 && !SLOW)(
      'naive: re-estimate the remainder after each drop',
      async () => {
        await naiveTruncate(context);
      },
      n > 10_000 ? ONCE : { iterations: 3, time: 0 },
    );
  });
}
