import { describe, expect, it } from 'vitest';
import { getText, type IContent } from '../../services/history/IContent.js';
import {
  ai,
  human,
  makeCompressionContext,
  ScriptedProvider,
  sentText,
  toolRoundTrip,
} from '../../test-utils/index.js';
import { DenseError } from '../../utils/errors.js';
import { EmptySummaryError } from './compressionErrors.js';
import { OneShotStrategy } from './OneShotStrategy.js';

const SNAPSHOT = '<state_snapshot><overall_goal>Ship it</overall_goal></state_snapshot>';

function session(rounds: number): IContent[] {
  return Array.from({ length: rounds }, (_, r) => [
    human(`request ${r}`),
    ...toolRoundTrip(`call-${r}`, 'grep', { pattern: `p${r}` }, `match ${r}`),
    ai(`answer ${r}`),
  ]).flat();
}

function throwingProvider(): never {
  throw new Error('no LLM call was expected');
}

class ProviderDown extends DenseError {
  readonly code = 'PROVIDER_UNAVAILABLE';
}

describe('OneShotStrategy.compress', () => {
  it('replaces everything before the preserved tail with summary + acknowledgement', async () => {
    const provider = new ScriptedProvider([{ text: SNAPSHOT }]);
    const ctx = await makeCompressionContext({ history: session(5), provider });
    const result = await new OneShotStrategy().compress(ctx);
    // 20 entries, tail ceil(8) → summarize [0, 12).
    expect(result.kind).toBe('applied');
    expect(result.newHistory).toHaveLength(10);
    expect(result.newHistory[0]?.metadata?.isSummary).toBe(true);
    expect(result.newHistory[1]?.metadata?.synthetic).toBe(true);
    expect(result.newHistory.slice(2)).toEqual(ctx.history.slice(12));
    expect(result.metadata).toEqual({
      originalMessageCount: 20,
      compressedMessageCount: 10,
      strategyUsed: 'one-shot',
      llmCallMade: true,
      topPreserved: 0,
      bottomPreserved: 8,
      middleCompressed: 12,
    });
  });

  it('sends everything before the tail, sanitized, and nothing of the tail', async () => {
    const provider = new ScriptedProvider([{ text: SNAPSHOT }]);
    await new OneShotStrategy().compress(
      await makeCompressionContext({ history: session(5), provider }),
    );
    const sent = getText(provider.requests[0]!.contents[0]!);
    expect(sent).toContain('request 0');
    expect(sent).toContain('→ Tool call grep (id call-2) with parameters: {"pattern":"p2"}');
    expect(sent).toContain('← Result of grep (id call-2):\nmatch 2');
    expect(sent).not.toContain('request 3');
  });

  it('REQ-HD-011.3 and REQ-HD-012.2 carry the todos to the request and the pointer to the summary', async () => {
    const provider = new ScriptedProvider([{ text: SNAPSHOT }]);
    const result = await new OneShotStrategy().compress(
      await makeCompressionContext({
        history: session(5),
        provider,
        activeTodos: [{ id: 'x1', content: 'Add tests', status: 'in_progress' }],
        transcriptPath: '/data/s.jsonl',
      }),
    );
    expect(sentText(provider.requests[0])).toContain('- [in_progress] x1: Add tests');
    expect(getText(result.newHistory[0]!)).toMatch(
      /\n\nFull pre-compression transcript available at: \/data\/s\.jsonl$/,
    );
  });

  it('is a no-op without an LLM call when the tail covers everything or there is nothing', async () => {
    const strategy = new OneShotStrategy();
    const single = await makeCompressionContext({
      history: [human('hi')],
      resolveProvider: throwingProvider,
    });
    await expect(strategy.compress(single)).resolves.toMatchObject({
      kind: 'noop',
      reason: 'tail-covers-all',
      metadata: { llmCallMade: false, strategyUsed: 'one-shot' },
    });
    const empty = await makeCompressionContext({ history: [], resolveProvider: throwingProvider });
    await expect(strategy.compress(empty)).resolves.toMatchObject({ reason: 'empty-history' });
  });

  it('REQ-HD-013.4 propagates provider errors and empty summaries, no fallback', async () => {
    const failure = new ProviderDown('down');
    const failing = new ScriptedProvider([{ error: failure }]);
    await expect(
      new OneShotStrategy().compress(
        await makeCompressionContext({ history: session(3), provider: failing }),
      ),
    ).rejects.toBe(failure);
    const silent = new ScriptedProvider([{ text: [] }]);
    await expect(
      new OneShotStrategy().compress(
        await makeCompressionContext({ history: session(3), provider: silent }),
      ),
    ).rejects.toBeInstanceOf(EmptySummaryError);
  });
});
