/**
 * Boundary safety of the three classic strategies: no output ever holds a tool response without
 * its call, or a call without all of its responses (prior-art A.5, A.7).
 */
import fc from 'fast-check';
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
import { MiddleOutStrategy } from './MiddleOutStrategy.js';
import { OneShotStrategy } from './OneShotStrategy.js';
import { planMiddleOutSplit, planOneShotSplit } from './planSummarySplit.js';
import { planTopDownTruncation } from './planTopDownTruncation.js';
import { safeSplitPoints } from './toolCallBoundary.js';
import { TopDownTruncationStrategy } from './TopDownTruncationStrategy.js';
import type { CompressionStrategy } from './types.js';

type Step =
  | { readonly kind: 'human' }
  | { readonly kind: 'ai' }
  | { readonly kind: 'call'; readonly parallel: number }
  | { readonly kind: 'respond'; readonly all: boolean; readonly separate: boolean }
  | { readonly kind: 'respondTwice' };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.constantFrom<Step>({ kind: 'human' }, { kind: 'ai' }, { kind: 'respondTwice' }),
  fc.record({ kind: fc.constant('call' as const), parallel: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('respond' as const), all: fc.boolean(), separate: fc.boolean() }),
  fc.record({ kind: fc.constant('respond' as const), all: fc.boolean(), separate: fc.boolean() }),
);

/**
 * A history from steps: calls (possibly parallel) answered later, in order, possibly with other
 * entries between, possibly several responses to one call, possibly never.
 */
function buildHistory(steps: readonly Step[]): IContent[] {
  const history: IContent[] = [];
  const pending: string[] = [];
  let next = 0;
  const respond = (id: string) => toolResult({ id, name: 'tool', result: `r-${id}` });
  for (const step of steps) {
    if (step.kind === 'human') history.push(human(`u${history.length}`));
    else if (step.kind === 'ai') history.push(ai(`a${history.length}`));
    else if (step.kind === 'call') {
      const ids = Array.from({ length: step.parallel }, () => `c${next++}`);
      pending.push(...ids);
      history.push(toolCall(ids.map((id) => ({ id, name: 'tool' }))));
    } else if (pending.length === 0) {
      history.push(human(`u${history.length}`));
    } else if (step.kind === 'respondTwice') {
      const id = pending.shift()!;
      history.push(respond(id), respond(id));
    } else {
      const ids = step.all ? pending.splice(0) : [pending.shift()!];
      if (step.separate) history.push(...ids.map(respond));
      else history.push(toolResult(ids.map((id) => ({ id, name: 'tool', result: `r-${id}` }))));
    }
  }
  return history;
}

const historyArb = fc.array(stepArb, { maxLength: 40 }).map(buildHistory);

function toolIds(entry: IContent): string[] {
  return entry.blocks.flatMap((block) =>
    block.type === 'tool_call' ? [block.id] : block.type === 'tool_response' ? [block.callId] : [],
  );
}

/** Ids whose call or responses fall into more than one of the segments cut at `cuts`. */
function idsAcrossCuts(history: readonly IContent[], cuts: readonly number[]): string[] {
  const segmentOf = new Map<string, number>();
  const crossing = new Set<string>();
  history.forEach((entry, index) => {
    const segment = cuts.filter((cut) => cut <= index).length;
    for (const id of toolIds(entry)) {
      const seen = segmentOf.get(id);
      if (seen === undefined) segmentOf.set(id, segment);
      else if (seen !== segment) crossing.add(id);
    }
  });
  return [...crossing];
}

/** Problems in a strategy's output: orphan responses, calls missing some of their responses. */
function pairProblems(output: readonly IContent[], original: readonly IContent[]): string[] {
  const count = (entries: readonly IContent[], type: 'tool_call' | 'tool_response') => {
    const counts = new Map<string, number>();
    for (const entry of entries) {
      for (const block of entry.blocks) {
        if (block.type !== type) continue;
        const id = block.type === 'tool_call' ? block.id : block.callId;
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
    }
    return counts;
  };
  const calls = count(output, 'tool_call');
  const responses = count(output, 'tool_response');
  const originalResponses = count(original, 'tool_response');
  const problems: string[] = [];
  for (const id of responses.keys()) if (!calls.has(id)) problems.push(`orphan response ${id}`);
  for (const id of calls.keys()) {
    if ((responses.get(id) ?? 0) !== (originalResponses.get(id) ?? 0)) {
      problems.push(`call ${id} without all of its responses`);
    }
  }
  return problems;
}

const fractionArb = fc.double({ min: 0.01, max: 1, noNaN: true });

describe('split plans over random histories', () => {
  it('middle-out never cuts a call from its responses', () => {
    fc.assert(
      fc.property(historyArb, fractionArb, fractionArb, (history, top, preserve) => {
        const plan = planMiddleOutSplit(history, {
          topPreserveThreshold: top,
          preserveThreshold: preserve,
        });
        if (plan.kind === 'noop') return true;
        return idsAcrossCuts(history, [plan.topEnd, plan.bottomStart]).length === 0;
      }),
      { numRuns: 300 },
    );
  });

  it('one-shot never cuts a call from its responses', () => {
    fc.assert(
      fc.property(historyArb, fractionArb, (history, preserve) => {
        const plan = planOneShotSplit(history, { preserveThreshold: preserve });
        if (plan.kind === 'noop') return true;
        return plan.topEnd === 0 && idsAcrossCuts(history, [plan.bottomStart]).length === 0;
      }),
      { numRuns: 300 },
    );
  });

  it('top-down truncation drops the smallest safe prefix that reaches the target', () => {
    const arb = historyArb.chain((history) =>
      fc.record({
        history: fc.constant(history),
        entryTokens: fc.array(fc.nat(50), {
          minLength: history.length,
          maxLength: history.length,
        }),
        targetTokens: fc.nat(history.length * 50),
      }),
    );
    fc.assert(
      fc.property(arb, ({ history, entryTokens, targetTokens }) => {
        const plan = planTopDownTruncation({ history, entryTokens, targetTokens });
        if (plan.kind === 'noop') return true;
        expect(idsAcrossCuts(history, [plan.dropCount])).toEqual([]);
        expect(history.length - plan.dropCount).toBeGreaterThanOrEqual(2);
        // Reference: re-sum the remainder for every allowed cut (the naive way).
        const safe = safeSplitPoints(history);
        const rest = (cut: number) => entryTokens.slice(cut).reduce((a, b) => a + b, 0);
        const allowed = [...Array(history.length - 1).keys()].filter((c) => c > 0 && safe[c]);
        const reaching = allowed.find((cut) => rest(cut) <= targetTokens);
        expect(plan.dropCount).toBe(reaching ?? Math.max(...allowed));
        expect(plan.remainingTokens).toBe(rest(plan.dropCount));
        return true;
      }),
      { numRuns: 300 },
    );
  });
});

const SNAPSHOT = '<state_snapshot>s</state_snapshot>';

function strategies(): [string, CompressionStrategy][] {
  return [
    ['middle-out', new MiddleOutStrategy()],
    ['one-shot', new OneShotStrategy()],
    ['top-down-truncation', new TopDownTruncationStrategy()],
  ];
}

async function compressWith(strategy: CompressionStrategy, history: readonly IContent[]) {
  return strategy.compress(
    await makeCompressionContext({
      history,
      provider: new ScriptedProvider([{ text: SNAPSHOT }]),
      tokenCounter: charEstimateTokenCounter,
      // Small enough that top-down always has something to drop.
      settings: { 'context-limit': 10 },
    }),
  );
}

describe('strategy outputs', () => {
  it.each(strategies())(
    '%s keeps pairs whole with a pair straddling every candidate split point',
    async (_name, strategy) => {
      const n = 20;
      for (let callAt = 0; callAt < n - 1; callAt++) {
        for (let responseAt = callAt + 1; responseAt < n; responseAt++) {
          const history: IContent[] = Array.from({ length: n }, (_, i) =>
            i % 2 === 0 ? human(`u${i}`) : ai(`a${i}`),
          );
          history[callAt] = toolCall({ id: 'pair', name: 'read_file' });
          history[responseAt] = toolResult({ id: 'pair', name: 'read_file', result: 'r' });
          const result = await compressWith(strategy, history);
          expect(pairProblems(result.newHistory, history)).toEqual([]);
        }
      }
    },
  );

  it.each(strategies())(
    '%s never outputs a response without its call or a call without its responses',
    async (_name, strategy) => {
      await fc.assert(
        fc.asyncProperty(historyArb, async (history) => {
          const result = await compressWith(strategy, history);
          expect(pairProblems(result.newHistory, history)).toEqual([]);
        }),
        { numRuns: 40 },
      );
    },
  );
});
