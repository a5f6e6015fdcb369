import { isPrunedPointer } from './compression/recallPointers.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { human, readFile, replaceInFile } from '../test-utils/historyBuilders.js';
import { ScriptedProvider } from '../test-utils/ScriptedProvider.js';
import { staticPromptResolver } from '../test-utils/compressionContext.js';
import { HistoryService } from '../services/history/HistoryService.js';
import type { IContent } from '../services/history/IContent.js';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import { createAgentRuntimeContext } from '../runtime/createAgentRuntimeContext.js';
import { SettingsService } from '../settings/SettingsService.js';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';
import { HighDensityStrategy } from './compression/HighDensityStrategy.js';
import { isEmptyDensityResult } from './compression/types.js';
import {
  CompressionHandler,
  type DensityAppliedEvent,
  type DensityDeferredEvent,
} from './CompressionHandler.js';
import { batchCuts, densityResultFrom } from './densityBatch.js';

const chars: TokenCounter = { countText: (text) => text.length };

function setup(settings: EphemeralSettings, clock: { t: number }, provider = 'anthropic') {
  const history = new HistoryService({ tokenCounter: chars });
  const strategy = new HighDensityStrategy();
  const runtime = createAgentRuntimeContext({
    settings: new SettingsService({
      session: { 'compression.strategy': 'high-density', ...settings },
    }),
    workspaceRoot: '/ws',
  });
  const scripted = new ScriptedProvider();
  const handler = new CompressionHandler({
    history,
    runtime,
    runtimeState: () => ({ sessionId: 's', provider, model: 'm' }),
    resolveProvider: () => scripted,
    promptResolver: staticPromptResolver(),
    promptBaseDir: '/prompts',
    resolveStrategy: () => strategy,
    completionReserve: () => 0,
    now: () => clock.t,
  });
  const pending = () => {
    const raw = history.getRawHistory();
    return !isEmptyDensityResult(strategy.optimize(raw, handler.densityConfig()));
  };
  return { history, handler, pending };
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
      const { history, handler, pending } = setup({ 'context-limit': 1_000_000 }, clock, provider);
      history.addAll([human('h'.repeat(50_000)), ...readFile('x', 'x.ts', 'x'.repeat(3000))]);
      for (let i = 0; i < 11; i++) history.addAll(readFile(`s${i}`, `s${i}.ts`, 's'.repeat(50)));
      await handler.ensureCompressionBeforeSend('p');
      clock.t += 1000;
      history.addAll(replaceInFile('w', 'x.ts'));
      handler.markDirty();
      await handler.ensureCompressionBeforeSend('p');
      // Priced as the suffix alone (OpenAI: no lookback) the 3,000-token read pays back at once;
      // priced as a rewrite of the 50k-token history it would take ~200 calls.
      expect(pending()).toBe(waits);
      expect(responseIds(history.getRawHistory()).has('x')).toBe(waits);
    },
  );

  it('#14.3 anthropic: a deep edit waits one call for its cache anchor, then goes, rewriting only what follows it', async () => {
    const clock = { t: 0 };
    const { history, handler, pending } = setup({ 'context-limit': 1_000_000 }, clock);
    const [readCall, readResult] = readFile('x', 'x.ts', 'x'.repeat(3000));
    history.addAll([human('h'.repeat(50_000)), readCall, readResult]);
    for (let i = 0; i < 11; i++) history.addAll(readFile(`s${i}`, `s${i}.ts`, 's'.repeat(50)));
    await handler.ensureCompressionBeforeSend('p');
    expect(handler.cacheAnchorEntries()).toEqual([]);
    const deferred: DensityDeferredEvent[] = [];
    handler.events.on('densityDeferred', (e) => deferred.push(e));
    const applied: DensityAppliedEvent[] = [];
    handler.events.on('densityApplied', (e) => applied.push(e));
    clock.t += 1000;
    history.addAll(replaceInFile('w', 'x.ts'));
    handler.markDirty();
    await handler.ensureCompressionBeforeSend('p');
    // Written again in full now (no cached prefix within 20 blocks): it waits for the anchor,
    // which this request carries right before the stale read's result.
    expect(deferred.map((e) => e.schedule.reason)).toEqual(['awaiting-anchor']);
    expect(pending()).toBe(true);
    expect(handler.cacheAnchorEntries()).toEqual([readCall]);
    clock.t += 1000;
    history.add(human('next'));
    handler.markDirty();
    await handler.ensureCompressionBeforeSend('p');
    expect(applied.map((e) => [e.schedule?.reason, e.firstEditedIndex])).toEqual([
      ['pays-back', 2],
    ]);
    expect(responseIds(history.getRawHistory()).has('x')).toBe(false);
    // The applying request marks the same anchor again, so its cache is found.
    expect(handler.cacheAnchorEntries()).toEqual([readCall]);
  });

  it('#14.3 anthropic: an edit right after the last reply invalidates from the newest intact cached prompt, the reply included', async () => {
    const clock = { t: 0 };
    const { history, handler } = setup({ 'context-limit': 1_000_000 }, clock);
    history.add(human('h'.repeat(5_000)));
    await handler.ensureCompressionBeforeSend('p');
    // A long reply that also reads r.ts; the next request sends both.
    const [readCall, readResult] = readFile('r', 'r.ts', 'r'.repeat(1_000));
    const longReply: IContent = {
      ...readCall,
      blocks: [{ type: 'text', text: 'w'.repeat(40_000) }, ...readCall.blocks],
    };
    history.addAll([longReply, readResult]);
    clock.t += 1000;
    await handler.ensureCompressionBeforeSend('p');
    const deferred: DensityDeferredEvent[] = [];
    handler.events.on('densityDeferred', (e) => deferred.push(e));
    // Its write makes the read stale: the newest cached prompt still intact ends before the reply.
    clock.t += 1000;
    history.addAll(replaceInFile('w', 'r.ts'));
    handler.markDirty();
    await handler.ensureCompressionBeforeSend('p');
    // Removing the 1,000-token read costs the 40,000-token reply's rewrite: it waits.
    expect(deferred).toHaveLength(1);
    expect(deferred[0]!.invalidatedTokens).toBeGreaterThan(40_000);
  });

  it('#14.3 a small deep edit waits; the stale read just before its write goes at once', async () => {
    const clock = { t: 0 };
    const { history, handler, pending } = setup({ 'context-limit': 1_000_000 }, clock);
    history.addAll([human('go'), ...readFile('deep', 'a.ts', 'a'.repeat(200))]);
    for (let i = 0; i < 20; i++) history.addAll(readFile(`o${i}`, `o${i}.ts`, 'o'.repeat(2000)));
    await handler.ensureCompressionBeforeSend('p');
    clock.t += 1000;
    history.addAll(readFile('near', 'b.ts', 'b'.repeat(3000)));
    await handler.ensureCompressionBeforeSend('p');
    clock.t += 1000;
    history.addAll([...replaceInFile('wa', 'a.ts'), ...replaceInFile('wb', 'b.ts')]);
    handler.markDirty();
    await handler.ensureCompressionBeforeSend('p');
    const ids = responseIds(history.getRawHistory());
    expect(ids.has('near')).toBe(false);
    expect(ids.has('deep')).toBe(true);
    expect(pending()).toBe(true);
    expect(handler.isDensityDirty()).toBe(true);
    // Once the cache is cold the deep edit goes too.
    clock.t += 10 * 60_000;
    await handler.ensureCompressionBeforeSend('p');
    expect(responseIds(history.getRawHistory()).has('deep')).toBe(false);
    expect(pending()).toBe(false);
  });

  it('#14.3 emergency path: near the hard limit every pending edit is applied at once', async () => {
    const clock = { t: 0 };
    const { history, handler, pending } = setup({ 'context-limit': 50_000 }, clock);
    history.addAll([human('go'), ...readFile('deep', 'a.ts', 'a'.repeat(300))]);
    for (let i = 0; i < 20; i++) history.addAll(readFile(`o${i}`, `o${i}.ts`, 'o'.repeat(1000)));
    await handler.ensureCompressionBeforeSend('p');
    clock.t += 1000;
    history.addAll(replaceInFile('wa', 'a.ts'));
    handler.markDirty();
    await handler.ensureCompressionBeforeSend('p');
    expect(pending()).toBe(true); // deep and small: it waits
    clock.t += 1000;
    const applied: DensityAppliedEvent[] = [];
    handler.events.on('densityApplied', (e) => applied.push(e));
    history.add(human('y'.repeat(25_000)));
    handler.markDirty();
    await handler.ensureCompressionBeforeSend('p', 5_000);
    // The stale read keeps its call (index 1); its response (index 2) gets the recall pointer.
    expect(applied.map((e) => [e.firstEditedIndex, e.schedule?.reason])).toEqual([
      [2, 'under-pressure'],
    ]);
    expect(pending()).toBe(false);
  });

  it('#14.3 at the threshold a batch too small to keep the next calls under it waits: the compression drops the same content, with one rewrite instead of two', async () => {
    const clock = { t: 0 };
    const { history, handler } = setup({ 'context-limit': 50_000 }, clock);
    history.addAll([human('go'), ...readFile('deep', 'a.ts', 'a'.repeat(300))]);
    for (let i = 0; i < 20; i++) history.addAll(readFile(`o${i}`, `o${i}.ts`, 'o'.repeat(1000)));
    await handler.ensureCompressionBeforeSend('p');
    clock.t += 1000;
    history.addAll(replaceInFile('wa', 'a.ts'));
    handler.markDirty();
    await handler.ensureCompressionBeforeSend('p');
    const applied: DensityAppliedEvent[] = [];
    handler.events.on('densityApplied', (e) => applied.push(e));
    let compressions = 0;
    handler.events.on('compressed', () => compressions++);
    clock.t += 1000;
    history.add(human('y'.repeat(22_000)));
    handler.markDirty();
    await handler.ensureCompressionBeforeSend('p');
    expect(applied.filter((e) => e.schedule?.reason === 'under-pressure')).toEqual([]);
    expect(compressions).toBe(1);
    expect(responseIds(history.getRawHistory()).has('deep')).toBe(false);
  });

  it('#14.3 with schedule immediate every edit is applied before the next call (the spec)', async () => {
    const clock = { t: 0 };
    const { history, handler, pending } = setup(
      { 'context-limit': 1_000_000, 'compression.density.schedule': 'immediate' },
      clock,
    );
    history.addAll([human('go'), ...readFile('deep', 'a.ts', 'a'.repeat(200))]);
    for (let i = 0; i < 20; i++) history.addAll(readFile(`o${i}`, `o${i}.ts`, 'o'.repeat(2000)));
    await handler.ensureCompressionBeforeSend('p');
    clock.t += 1000;
    history.addAll(replaceInFile('wa', 'a.ts'));
    handler.markDirty();
    await handler.ensureCompressionBeforeSend('p');
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
      metadata: { readWritePairsPruned: 2, fileDeduplicationsPruned: 0, recencyPruned: 0 },
    };
    const savings = new Map([1, 2, 3, 4].map((i) => [i, 10]));
    const cuts = batchCuts(history, result, savings, () => 0);
    expect(cuts.map((c) => c.index)).toEqual([1, 3]);
    expect(cuts.map((c) => c.removedTokens)).toEqual([40, 20]);
    expect(densityResultFrom(history, result, 3)).toMatchObject({
      removals: [3, 4],
      metadata: { readWritePairsPruned: 1 },
    });
  });
});
