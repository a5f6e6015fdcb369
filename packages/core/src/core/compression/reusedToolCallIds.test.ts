/**
 * Issue #12.3: a server that reuses one tool-call id for every call must not stall compression.
 * Pairing by id alone spans `call_1` from the first call to the last response, so no split point
 * between them is safe; pairing by position makes every call/response its own short pair.
 */
import { describe, expect, it } from 'vitest';
import type { IContent } from '../../services/history/IContent.js';
import { charEstimateTokenCounter } from '../../services/history/TokenCounter.js';
import {
  ai,
  human,
  makeCompressionContext,
  ScriptedProvider,
  toolCall,
  toolResult,
} from '../../test-utils/index.js';
import { HighDensityStrategy } from './HighDensityStrategy.js';
import { MiddleOutStrategy } from './MiddleOutStrategy.js';
import { OneShotStrategy } from './OneShotStrategy.js';
import { topDownTargetTokens } from './planTopDownTruncation.js';
import { TopDownTruncationStrategy } from './TopDownTruncationStrategy.js';
import type { CompressionStrategy } from './types.js';

const CONTEXT_LIMIT = 20_000;

/** 31 rounds of question, `read_file` under the id `call_1`, its result and an answer. */
function reusedIdHistory(reuse = true): IContent[] {
  const history: IContent[] = [];
  for (let round = 0; round < 31; round++) {
    const id = reuse ? 'call_1' : `call_${round + 1}`;
    history.push(
      human(`question ${round} `.repeat(150)),
      toolCall({ id, name: 'read_file', parameters: { file_path: `src/f${round}.ts` } }),
      toolResult({ id, name: 'read_file', result: `export const v${round} = 1;` }),
      ai(`answer ${round} `.repeat(60)),
    );
  }
  return history;
}

/** Each strategy, and whether it aims at a token target (middle-out keeps fixed fractions). */
const strategies: [string, () => CompressionStrategy, boolean][] = [
  ['top-down-truncation', () => new TopDownTruncationStrategy(), true],
  ['middle-out', () => new MiddleOutStrategy(), false],
  ['one-shot', () => new OneShotStrategy(), true],
  ['high-density', () => new HighDensityStrategy(), true],
];

async function compressed(make: () => CompressionStrategy, history: readonly IContent[]) {
  const context = await makeCompressionContext({
    history,
    provider: new ScriptedProvider([{ text: '<state_snapshot>s</state_snapshot>' }]),
    tokenCounter: charEstimateTokenCounter,
    // The threshold's compression (the working budget plans its own cut).
    settings: { 'context-limit': CONTEXT_LIMIT, 'compression.density.workingBudget': 0 },
  });
  const result = await make().compress(context);
  return {
    kind: result.kind,
    before: await context.estimateTokens(history),
    after: await context.estimateTokens(result.newHistory),
  };
}

describe('#12.3 compression with reused tool-call ids', () => {
  it.each(strategies)(
    '#12.3 %s shrinks an ~18,600-token history whose calls are all call_1 as far as with unique ids',
    async (_name, make, targeted) => {
      const reused = await compressed(make, reusedIdHistory());
      const unique = await compressed(make, reusedIdHistory(false));
      expect(reused.before).toBeGreaterThan(18_000);
      expect(reused.before).toBeLessThan(19_000);
      expect(reused.kind).toBe('applied');
      expect(reused.after).toBe(unique.after);
      expect(reused.after).toBeLessThan(reused.before * 0.65);
      const target = topDownTargetTokens(0.85, CONTEXT_LIMIT);
      expect(target).toBe(10_200);
      if (targeted) expect(reused.after).toBeLessThanOrEqual(target);
    },
  );
});
