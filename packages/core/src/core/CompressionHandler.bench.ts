/**
 * The whole pre-send step (`ensureCompressionBeforeSend`) per turn, with high-density active, on
 * histories of 10k to 1M tokens; one new entry arrives per turn. Two cases: the new entry already
 * tokenized (density and the threshold check alone) and — what a real turn
 * costs — the new entry a fresh object the step must tokenize first (o200k, as the history
 * counts). The context limit is set high so only density and the threshold check run.
 */
import { testCompressionHandler } from '../test-utils/testCompressionHandler.js';
import { bench, describe } from 'vitest';
import { HistoryService } from '../services/history/HistoryService.js';
import type { IContent } from '../services/history/IContent.js';
import { syntheticHistory } from './compression/density/test-utils/syntheticHistory.js';

const TURNS = 300;

async function preparedSession(targetTokens: number, schedule: 'batched' | 'immediate') {
  const history = new HistoryService();
  const { handler } = testCompressionHandler({
    history,
    settings: {
      'compression.strategy': 'high-density',
      'context-limit': 100_000_000,
      'compression.density.schedule': schedule,
    },
    workspaceRoot: '/workspace',
  });
  // ~100 tokens per synthetic entry: generate enough, then keep exactly the prefix that fits.
  const all = syntheticHistory(Math.ceil(targetTokens / 80) + TURNS, 7);
  await history.estimateTokensForContents(all);
  let tokens = 0;
  let initial = 0;
  while (initial < all.length - TURNS && tokens < targetTokens) {
    tokens += history.tokensOf(all[initial] as IContent) ?? 0;
    initial++;
  }
  history.addAll(all.slice(0, initial));
  await handler.ensureCompressionBeforeSend('setup');
  return {
    history,
    handler,
    upcoming: all.slice(initial),
    label: `${tokens.toLocaleString('en-US')} tokens, ${initial} entries`,
  };
}

const ITERATIONS = 200;
const RUN = { iterations: ITERATIONS, time: 0, warmupIterations: 5, warmupTime: 0 } as const;

for (const [size, schedule] of [
  [10_000, 'batched'],
  [100_000, 'batched'],
  [1_000_000, 'batched'],
  [1_000_000, 'immediate'],
] as const) {
  const { history, handler, upcoming, label } = await preparedSession(size, schedule);
  // Fresh objects: token counts are cached by entry identity, so these are tokenized in the step.
  const fresh = Array.from({ length: ITERATIONS + RUN.warmupIterations }, (_, i) =>
    structuredClone(upcoming[i % upcoming.length] as IContent),
  );
  let turn = 0;
  let freshTurn = 0;
  describe(`pre-send per turn, history of ${label}, schedule ${schedule}`, () => {
    bench(
      'add one entry (already tokenized) + ensureCompressionBeforeSend (high-density)',
      async () => {
        history.add(upcoming[turn++ % upcoming.length] as IContent);
        handler.markDirty();
        await handler.ensureCompressionBeforeSend('bench');
      },
      RUN,
    );
    bench(
      'whole step: add one new entry, tokenize it, ensureCompressionBeforeSend (high-density)',
      async () => {
        history.add(fresh[freshTurn++ % fresh.length] as IContent);
        handler.markDirty();
        await handler.ensureCompressionBeforeSend('bench');
      },
      RUN,
    );
  });
}
