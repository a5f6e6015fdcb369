import { testCompressionHandler } from '../test-utils/testCompressionHandler.js';
import { isPrunedPointer } from '../core/compression/recallPointers.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { human, readFile, replaceInFile } from '../test-utils/historyBuilders.js';
import { HistoryService } from '../services/history/HistoryService.js';
import type { IContent } from '../services/history/IContent.js';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';
import { HighDensityStrategy } from '../core/compression/HighDensityStrategy.js';
import { isEmptyDensityResult } from '../core/compression/types.js';
import { type DensityAppliedEvent, type DensityDeferredEvent } from '../core/CompressionHandler.js';
import { batchCuts, densityResultFrom } from './densityBatch.js';

const chars: TokenCounter = { countText: (text) => text.length };

function setup(settings: EphemeralSettings, clock: { t: number }, provider = 'anthropic') {
  const history = new HistoryService({ tokenCounter: chars });
  const strategy = new HighDensityStrategy();
  const { handler } = testCompressionHandler({
    history,
    // The threshold's decisions, with no working budget in front of them.
    settings: {
      'compression.strategy': 'high-density',
      'compression.density.workingBudget': 0,
      ...settings,
    },
    providerName: provider,
    overrides: { resolveStrategy: () => strategy, completionReserve: () => 0, now: () => clock.t },
  });
  const pending = () => {
    const raw = history.getRawHistory();
    return !isEmptyDensityResult(strategy.optimize(raw, handler.densityConfig()));
  };
  /** Records `entries`, lets `gapMs` pass and runs the pre-send step (a model call follows). */
  const send = async (entries: readonly IContent[] = [], gapMs = 1000, pendingTokens = 0) => {
    clock.t += gapMs;
    history.addAll(entries);
    handler.markDirty();
    await handler.ensureCompressionBeforeSend('p', pendingTokens);
  };
  return { history, handler, pending, send };
}

/** A long first message, a read of x.ts (3,000 chars), then 11 small reads: 23 blocks after it. */
function readDeepInLongHistory(readCall: IContent, readResult: IContent): IContent[] {
  const small = Array.from({ length: 11 }, (_, i) => readFile(`s${i}`, `s${i}.ts`, 's'.repeat(50)));
  return [human('h'.repeat(50_000)), readCall, readResult, ...small.flat()];
}

/** A read of a.ts (`readChars`) followed by 20 reads of other files (`otherChars` each). */
function readThenTwenty(readChars: number, otherChars: number): IContent[] {
  const others = Array.from({ length: 20 }, (_, i) =>
    readFile(`o${i}`, `o${i}.ts`, 'o'.repeat(otherChars)),
  );
  return [human('go'), ...readFile('deep', 'a.ts', 'a'.repeat(readChars)), ...others.flat()];
}

/** Every call has its responses and every response its call. */
function paired(history: readonly IContent[]): boolean {
  const calls = new Set<string>();
  const responses = new Set<string>();
  for (const entry of history) {
    for (const block of entry.blocks) {
      if (block.type === 'tool_call') calls.add(block.id);
      if (block.type === 'tool_response') responses.add(block.callId);
    }
  }
  return [...calls].every((id) => responses.has(id)) && [...responses].every((id) => calls.has(id));
}

/** Ids of the responses that still show their content (a pruned one holds a recall pointer). */
function responseIds(history: readonly IContent[]): Set<string> {
  const ids = new Set<string>();
  for (const entry of history)
    for (const block of entry.blocks)
      if (block.type === 'tool_response' && !isPrunedPointer(block.result)) ids.add(block.callId);
  return ids;
}

type Op =
  | { kind: 'read'; file: number; size: number }
  | { kind: 'write'; file: number }
  | { kind: 'send'; gapMs: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('read' as const),
    file: fc.integer({ min: 0, max: 4 }),
    size: fc.integer({ min: 10, max: 3000 }),
  }),
  fc.record({ kind: fc.constant('write' as const), file: fc.integer({ min: 0, max: 4 }) }),
  fc.record({
    kind: fc.constant('send' as const),
    gapMs: fc.oneof(fc.integer({ min: 1, max: 60_000 }), fc.constant(10 * 60_000)),
  }),
);

/** Sends after every other step, so edits are found while their reads are cached. */
const session: fc.Arbitrary<Op[]> = fc
  .array(fc.tuple(op, fc.oneof(fc.integer({ min: 1, max: 60_000 }), fc.constant(10 * 60_000))), {
    maxLength: 40,
  })
  .map((steps) => steps.flatMap(([step, gapMs]) => [step, { kind: 'send' as const, gapMs }]));

describe('batched density schedule (issue 14.3)', () => {
  it('#14.3 property: sticky — pruned content never comes back; the sent prefix changes only at a batch; cold cache applies all; calls keep their responses', async () => {
    await fc.assert(
      fc.asyncProperty(session, fc.integer({ min: 20_000, max: 200_000 }), async (ops, limit) => {
        const clock = { t: 0 };
        const { history, handler, pending } = setup({ 'context-limit': limit }, clock);
        const applied: DensityAppliedEvent[] = [];
        handler.events.on('densityApplied', (e) => applied.push(e));
        let compressions = 0;
        handler.events.on('compressed', () => compressions++);
        history.add(human('start'));
        let sent: readonly IContent[] = [];
        const gone = new Set<string>();
        let n = 0;
        for (const step of ops) {
          n++;
          if (step.kind === 'read') {
            history.addAll(readFile(`c${n}`, `f${step.file}.ts`, 'x'.repeat(step.size)));
            handler.markDirty();
          } else if (step.kind === 'write') {
            history.addAll(replaceInFile(`c${n}`, `f${step.file}.ts`));
            handler.markDirty();
          } else {
            clock.t += step.gapMs;
            const before = applied.length + compressions;
            await handler.ensureCompressionBeforeSend('p');
            const now = history.getRawHistory();
            const batch = applied.length + compressions > before;
            const changed = sent.some((entry, i) => now[i] !== entry);
            if (!batch) expect(changed).toBe(false);
            if (step.gapMs > 5 * 60_000) expect(pending()).toBe(false);
            expect(paired(now)).toBe(true);
            const ids = responseIds(now);
            for (const id of responseIds(sent)) if (!ids.has(id)) gone.add(id);
            for (const id of gone) expect(ids.has(id)).toBe(false);
            sent = [...now];
          }
        }
      }),
      { numRuns: 25 },
    );
  });

  it.each([
    ['anthropic', true],
    ['openai', false],
  ] as const)(
    '#14.3 %s: an edit more than 20 blocks back rewrites the whole history (Anthropic lookback), so it waits there',
    async (provider, waits) => {
      const clock = { t: 0 };
      // A horizon of 10 calls: the suffix alone pays back in ~9.
      const { history, pending, send } = setup(
        { 'context-limit': 1_000_000, 'compression.density.cachePaybackCalls': 10 },
        clock,
        provider,
      );
      await send(readDeepInLongHistory(...readFile('x', 'x.ts', 'x'.repeat(3000))));
      await send(replaceInFile('w', 'x.ts'));
      // Priced as the suffix alone (OpenAI: no lookback) the 3,000-token read pays back in time;
      // priced as a rewrite of the 50k-token history it would take ~200 calls.
      expect(pending()).toBe(waits);
      expect(responseIds(history.getRawHistory()).has('x')).toBe(waits);
    },
  );

  it('#14.3 anthropic: a deep edit waits one call for its cache anchor, then goes, rewriting only what follows it', async () => {
    const clock = { t: 0 };
    const { history, handler, pending, send } = setup(
      { 'context-limit': 1_000_000, 'compression.density.cachePaybackCalls': 10 },
      clock,
    );
    const [readCall, readResult] = readFile('x', 'x.ts', 'x'.repeat(3000));
    await send(readDeepInLongHistory(readCall, readResult));
    expect(handler.cacheAnchorEntries()).toEqual([]);
    const deferred: DensityDeferredEvent[] = [];
    handler.events.on('densityDeferred', (e) => deferred.push(e));
    const applied: DensityAppliedEvent[] = [];
    handler.events.on('densityApplied', (e) => applied.push(e));
    await send(replaceInFile('w', 'x.ts'));
    // Written again in full now (no cached prefix within 20 blocks): it waits for the anchor,
    // which this request carries right before the stale read's result.
    expect(deferred.map((e) => e.schedule.reason)).toEqual(['awaiting-anchor']);
    expect(pending()).toBe(true);
    expect(handler.cacheAnchorEntries()).toEqual([readCall]);
    await send([human('next')]);
    expect(applied.map((e) => [e.schedule?.reason, e.firstEditedIndex])).toEqual([
      ['pays-back', 2],
    ]);
    expect(responseIds(history.getRawHistory()).has('x')).toBe(false);
    // The applying request marks the same anchor again, so its cache is found.
    expect(handler.cacheAnchorEntries()).toEqual([readCall]);
  });

  it('#14.3 anthropic: an edit right after the last reply invalidates from the newest intact cached prompt, the reply included', async () => {
    const clock = { t: 0 };
    const { handler, send } = setup({ 'context-limit': 1_000_000 }, clock);
    await send([human('h'.repeat(5_000))]);
    // A long reply that also reads r.ts; the next request sends both.
    const [readCall, readResult] = readFile('r', 'r.ts', 'r'.repeat(1_000));
    const longReply: IContent = {
      ...readCall,
      blocks: [{ type: 'text', text: 'w'.repeat(40_000) }, ...readCall.blocks],
    };
    await send([longReply, readResult]);
    const deferred: DensityDeferredEvent[] = [];
    handler.events.on('densityDeferred', (e) => deferred.push(e));
    // Its write makes the read stale: the newest cached prompt still intact ends before the reply.
    await send(replaceInFile('w', 'r.ts'));
    // Removing the 1,000-token read costs the 40,000-token reply's rewrite: it waits.
    expect(deferred).toHaveLength(1);
    expect(deferred[0]!.invalidatedTokens).toBeGreaterThan(40_000);
  });

  it('#14.3 a small deep edit waits; the stale read just before its write goes at once', async () => {
    const clock = { t: 0 };
    const { history, handler, pending, send } = setup({ 'context-limit': 1_000_000 }, clock);
    await send(readThenTwenty(200, 2000));
    await send(readFile('near', 'b.ts', 'b'.repeat(3000)));
    await send([...replaceInFile('wa', 'a.ts'), ...replaceInFile('wb', 'b.ts')]);
    const ids = responseIds(history.getRawHistory());
    expect(ids.has('near')).toBe(false);
    expect(ids.has('deep')).toBe(true);
    expect(pending()).toBe(true);
    expect(handler.isDensityDirty()).toBe(true);
    // Once the cache is cold the deep edit goes too.
    await send([], 10 * 60_000);
    expect(responseIds(history.getRawHistory()).has('deep')).toBe(false);
    expect(pending()).toBe(false);
  });

  it('#14.3 emergency path: near the hard limit every pending edit is applied at once', async () => {
    const clock = { t: 0 };
    const { handler, pending, send } = setup({ 'context-limit': 50_000 }, clock);
    await send(readThenTwenty(300, 1000));
    await send(replaceInFile('wa', 'a.ts'));
    expect(pending()).toBe(true); // deep and small: it waits
    const applied: DensityAppliedEvent[] = [];
    handler.events.on('densityApplied', (e) => applied.push(e));
    await send([human('y'.repeat(25_000))], 1000, 5_000);
    // The stale read keeps its call (index 1); its response (index 2) gets the recall pointer.
    expect(applied.map((e) => [e.firstEditedIndex, e.schedule?.reason])).toEqual([
      [2, 'under-pressure'],
    ]);
    expect(pending()).toBe(false);
  });

  it('#14.3 at the threshold a batch too small to keep the next calls under it waits: the compression drops the same content, with one rewrite instead of two', async () => {
    const clock = { t: 0 };
    const { history, handler, send } = setup({ 'context-limit': 50_000 }, clock);
    await send(readThenTwenty(300, 1000));
    await send(replaceInFile('wa', 'a.ts'));
    const applied: DensityAppliedEvent[] = [];
    handler.events.on('densityApplied', (e) => applied.push(e));
    let compressions = 0;
    handler.events.on('compressed', () => compressions++);
    await send([human('y'.repeat(22_000))]);
    expect(applied.filter((e) => e.schedule?.reason === 'under-pressure')).toEqual([]);
    expect(compressions).toBe(1);
    expect(responseIds(history.getRawHistory()).has('deep')).toBe(false);
  });

  it('#23.4 at the threshold a deep batch that would rewrite more than a compression writes goes with the compression: one rewrite of a smaller history, not a batch alone', async () => {
    const clock = { t: 0 };
    const { history, handler, send } = setup({ 'context-limit': 50_000 }, clock);
    // A stale 3,000-char read below 20 reads of 1,500: deep beyond the lookback, so applying it
    // alone writes the whole ~33k prompt again (1.15 × 33k − 1.25 × 3k ≈ 34k more than not
    // applying); compressing writes at most the 25,500 target (1.25 × 25.5k − 0.1 × 43k ≈ 27.6k).
    await send(readThenTwenty(3000, 1500));
    await send(replaceInFile('wa', 'a.ts'));
    const applied: DensityAppliedEvent[] = [];
    handler.events.on('densityApplied', (e) => applied.push(e));
    let compressions = 0;
    handler.events.on('compressed', () => compressions++);
    await send([human('y'.repeat(10_000))]);
    expect(applied.map((e) => e.schedule?.reason)).toEqual(['with-compression']);
    expect(compressions).toBe(1);
    expect(history.getTotalTokens()).toBeLessThanOrEqual(25_500);
    expect(responseIds(history.getRawHistory()).has('deep')).toBe(false);
  });

  it('#23.4 a batch alone still goes under pressure when it is cheaper than the compression (near the end of the history)', async () => {
    const clock = { t: 0 };
    const { handler, send } = setup({ 'context-limit': 50_000 }, clock);
    await send(readThenTwenty(300, 1500));
    await send([...readFile('near', 'b.ts', 'b'.repeat(6000)), human('z'.repeat(5_000))]);
    const applied: DensityAppliedEvent[] = [];
    handler.events.on('densityApplied', (e) => applied.push(e));
    let compressions = 0;
    handler.events.on('compressed', () => compressions++);
    // Calls that add nothing, enough that the recent growth per call is nil: removing the read
    // relieves for good (#35.2 prices the batch over the horizon, and a history still growing
    // would bring the compression back within it).
    for (let i = 0; i < 6; i++) await send();
    await send([...replaceInFile('wb', 'b.ts'), human('w'.repeat(2_000))]);
    expect(applied.map((e) => e.schedule?.reason)).toEqual(['under-pressure']);
    expect(compressions).toBe(0);
  });

  it('#14.3 with schedule immediate every edit is applied before the next call (the spec)', async () => {
    const clock = { t: 0 };
    const { pending, send } = setup(
      { 'context-limit': 1_000_000, 'compression.density.schedule': 'immediate' },
      clock,
    );
    await send(readThenTwenty(200, 2000));
    await send(replaceInFile('wa', 'a.ts'));
    expect(pending()).toBe(false);
  });

  it('#14.3 a batch is never cut between a call and its response', () => {
    const history = [
      human('go'),
      ...readFile('r1', 'a.ts', 'a'.repeat(100)),
      ...readFile('r2', 'b.ts', 'b'.repeat(100)),
    ];
    // Removing r1 takes entries 1 and 2; r2 takes 3 and 4.
    const result = {
      removals: [1, 2, 3, 4],
      replacements: new Map<number, IContent>(),
      metadata: { readWrite: 2, dedup: 0, recency: 0 },
    };
    const savings = new Map([1, 2, 3, 4].map((i) => [i, 10]));
    const cuts = batchCuts(history, result, savings, () => 0);
    expect(cuts.map((c) => c.index)).toEqual([1, 3]);
    expect(cuts.map((c) => c.removedTokens)).toEqual([40, 20]);
    expect(densityResultFrom(history, result, 3)).toMatchObject({
      removals: [3, 4],
      metadata: { readWrite: 1 },
    });
  });
});
