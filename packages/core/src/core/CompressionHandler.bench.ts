/**
 * The whole pre-send step (`ensureCompressionBeforeSend`) per turn, with high-density active, on
 * histories of 10k to 1M tokens; one new entry arrives per turn. New entries are tokenized in
 * setup, so the figures exclude tokenizing them (the measure). The context limit is set
 * high so only density and the threshold check run.
 */
import { bench, describe } from 'vitest';
import { HistoryService } from '../services/history/HistoryService.js';
import type { IContent } from '../services/history/IContent.js';
import { createAgentRuntimeContext } from '../runtime/createAgentRuntimeContext.js';
import { SettingsService } from '../settings/SettingsService.js';
import { staticPromptResolver } from '../test-utils/compressionContext.js';
import { ScriptedProvider } from '../test-utils/ScriptedProvider.js';
import { syntheticHistory } from './compression/density/test-utils/syntheticHistory.js';
import { CompressionHandler } from './CompressionHandler.js';

const TURNS = 300;

async function preparedSession(targetTokens: number, schedule: 'batched' | 'immediate') {
  const history = new HistoryService();
  const provider = new ScriptedProvider();
  const runtime = createAgentRuntimeContext({
    settings: new SettingsService({
      session: {
        'compression.strategy': 'high-density',
        'context-limit': 100_000_000,
        'compression.density.schedule': schedule,
      },
    }),
    workspaceRoot: '/workspace',
  });
  const handler = new CompressionHandler({
    history,
    runtime,
    runtimeState: () => ({ sessionId: 'bench', provider: provider.name, model: provider.model }),
    resolveProvider: () => provider,
    promptResolver: staticPromptResolver(),
    promptBaseDir: '/prompts',
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

for (const [size, schedule] of [
  [10_000, 'batched'],
  [100_000, 'batched'],
  [1_000_000, 'batched'],
  [1_000_000, 'immediate'],
] as const) {
  const { history, handler, upcoming, label } = await preparedSession(size, schedule);
  let turn = 0;
  describe(`pre-send per turn, history of ${label}, schedule ${schedule}`, () => {
    bench(
      'add one entry + ensureCompressionBeforeSend (high-density)',
      async () => {
        history.add(upcoming[turn++ % upcoming.length] as IContent);
        handler.markDirty();
        await handler.ensureCompressionBeforeSend('bench');
      },
      { iterations: 200, time: 0, warmupIterations: 5, warmupTime: 0 },
    );
  });
}
