import { describe, expect, it, vi } from 'vitest';
import { ai, human, readFile, toolRoundTrip } from '../test-utils/historyBuilders.js';
import { createAiMessage, createUserMessage, type IContent } from '../services/history/IContent.js';
import { EMPTY_DENSITY_METADATA, type DensityConfig } from './compression/types.js';
import { ContextOverflowError } from './chatTypes.js';
import {
  big,
  changesNothing,
  fakeStrategy,
  nothing,
  setup,
} from '../test-utils/compressionHandlerFixtures.js';

describe('CompressionHandler.ensureCompressionBeforeSend', () => {
  it('REQ-HD-002.1 runs density after settling tokens and before the threshold check, which sees the post-density count', async () => {
    const log: string[] = [];
    // 900 tokens of 1000 (threshold 0.85): over. Density removes 400 → 500: under, so no compress.
    const strategy = fakeStrategy({
      log,
      optimize: () => ({
        removals: [1],
        replacements: new Map(),
        metadata: EMPTY_DENSITY_METADATA,
      }),
    });
    const { handler, history } = await setup({ entries: [big(500), big(400)], strategy });
    const shouldCompress = vi.spyOn(handler, 'shouldCompress');
    await handler.ensureCompressionBeforeSend('p');
    expect(log).toEqual(['optimize']);
    expect(shouldCompress).toHaveBeenCalled();
    expect(history.getTotalTokens()).toBe(500);
  });

  it('REQ-HD-002.1 compresses when still over the threshold after density, with the density edit already applied', async () => {
    const log: string[] = [];
    const strategy = fakeStrategy({
      log,
      optimize: () => ({
        removals: [0],
        replacements: new Map(),
        metadata: EMPTY_DENSITY_METADATA,
      }),
    });
    const { handler } = await setup({ entries: [big(100), big(880), big(20)], strategy });
    await handler.ensureCompressionBeforeSend('p');
    expect(log).toEqual(['optimize', 'compress@900']);
  });

  it('the threshold check counts the pending message', async () => {
    const log: string[] = [];
    const { handler } = await setup({ entries: [big(800)], strategy: fakeStrategy({ log }) });
    expect(handler.shouldCompress(0)).toBe(false);
    expect(handler.shouldCompress(60)).toBe(true);
    await handler.ensureCompressionBeforeSend('p', 60);
    expect(log).toEqual(['compress@800']);
  });

  it('REQ-HD-002.2 skips density when the strategy has no optimize', async () => {
    const strategy = fakeStrategy();
    const { handler, history } = await setup({ entries: [big(10)], strategy });
    const apply = vi.spyOn(history, 'applyDensityResult');
    await handler.ensureCompressionBeforeSend('p');
    expect(apply).not.toHaveBeenCalled();
    expect(strategy.optimize).toBeUndefined();
  });

  it('REQ-HD-002.3 skips density when nothing was added since the last run', async () => {
    const strategy = fakeStrategy({ optimize: nothing });
    const { handler } = await setup({ entries: [big(10)], strategy });
    await handler.ensureCompressionBeforeSend('p');
    await handler.ensureCompressionBeforeSend('p');
    expect(strategy.optimize).toHaveBeenCalledTimes(1);
    handler.markDirty();
    await handler.ensureCompressionBeforeSend('p');
    expect(strategy.optimize).toHaveBeenCalledTimes(2);
  });

  it('REQ-HD-002.4 applies a non-empty result and awaits the recalculation', async () => {
    const replacement = createUserMessage('short');
    const strategy = fakeStrategy({
      optimize: () => ({
        removals: [],
        replacements: new Map([[0, replacement]]),
        metadata: EMPTY_DENSITY_METADATA,
      }),
    });
    const { handler, history } = await setup({ entries: [big(300)], strategy });
    await handler.ensureDensityOptimized();
    expect(history.getRawHistory()[0]).toBe(replacement);
    expect(history.getTotalTokens()).toBe(5);
  });

  it('REQ-HD-002.5 does not call applyDensityResult for an empty result', async () => {
    const strategy = fakeStrategy({ optimize: nothing });
    const { handler, history } = await setup({ entries: [big(10)], strategy });
    const apply = vi.spyOn(history, 'applyDensityResult');
    await handler.ensureDensityOptimized();
    expect(strategy.optimize).toHaveBeenCalledTimes(1);
    expect(apply).not.toHaveBeenCalled();
  });

  it('REQ-HD-002.6 neither a density edit nor a compression sets the dirty flag', async () => {
    const strategy = fakeStrategy({
      optimize: (h) => ({
        removals: h.length > 1 ? [0] : [],
        replacements: new Map(),
        metadata: EMPTY_DENSITY_METADATA,
      }),
    });
    const { handler } = await setup({ entries: [big(10), big(10)], strategy });
    await handler.ensureDensityOptimized();
    expect(handler.isDensityDirty()).toBe(false);
    await handler.performCompression('p');
    expect(handler.isDensityDirty()).toBe(false);
    handler.markDirty();
    expect(handler.isDensityDirty()).toBe(true);
  });

  it('REQ-HD-002.7 clears the dirty flag after optimization even when nothing changed', async () => {
    const { handler } = await setup({
      entries: [big(10)],
      strategy: fakeStrategy({ optimize: nothing }),
    });
    expect(handler.isDensityDirty()).toBe(true);
    await handler.ensureDensityOptimized();
    expect(handler.isDensityDirty()).toBe(false);
  });

  it('REQ-HD-002.8 the emergency path (over the hard limit) runs density before compression', async () => {
    const log: string[] = [];
    const strategy = fakeStrategy({
      log,
      optimize: () => ({ removals: [], replacements: new Map(), metadata: EMPTY_DENSITY_METADATA }),
    });
    // Threshold 1.0: the threshold check alone never fires for history below the limit.
    const { handler } = await setup({
      entries: [big(700), big(100)],
      settings: { 'compression-threshold': 1 },
      strategy,
      reserve: 150,
    });
    await handler.ensureCompressionBeforeSend('p', 100);
    expect(log).toEqual(['optimize', 'compress@800']);
  });

  it("#33.3 the emergency path keeps what was tried and failed beside the user's words when it drops every entry", async () => {
    const noop = fakeStrategy({ compress: changesNothing });
    const entries = [
      human('Fix the build of the parser package.'),
      ...toolRoundTrip(
        'b1',
        'run_shell_command',
        { command: 'npm run build' },
        'Exit code: 2\nsrc/parse.ts(4,1): error TS2304: Cannot find name scanToken.',
      ),
      big(35_000),
    ];
    const { handler, history } = await setup({
      entries,
      strategy: noop,
      settings: { 'context-limit': 40_000, 'compression-threshold': 1 },
    });
    await handler.ensureCompressionBeforeSend('p', 9_000);
    const shown = history
      .getCurated()
      .flatMap((entry) => entry.blocks.map((block) => (block.type === 'text' ? block.text : '')))
      .join('\n');
    expect(shown).toContain('Fix the build of the parser package.');
    expect(shown).toContain('Tried and failed:');
    expect(shown).toContain('`npm run build` → exit 2: src/parse.ts(4,1): error TS2304');
  });

  it('the emergency path throws a typed overflow error with the numbers when nothing makes room (mid-turn, the newest entry alone is over)', async () => {
    const strategy = fakeStrategy({ compress: changesNothing });
    const { handler } = await setup({ entries: [big(1000)], strategy, reserve: 100 });
    const error = await handler.ensureCompressionBeforeSend('p', 0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect(error).toMatchObject({
      code: 'CONTEXT_OVERFLOW',
      neededTokens: 1100,
      contextLimit: 1000,
    });
    expect((error as Error).message).toContain('1100 tokens');
  });

  it('#12.2 a message that cannot fit even in an empty history is refused before any compression; history unchanged', async () => {
    const log: string[] = [];
    const strategy = fakeStrategy({ log, optimize: nothing });
    const entries = Array.from({ length: 24 }, (_, i) =>
      i % 2 === 0 ? big(30) : ai('y'.repeat(30)),
    );
    const { handler, history } = await setup({ entries, strategy, reserve: 100 });
    const before = history.getCurated();
    const error = await handler.ensureCompressionBeforeSend('p', 1500).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContextOverflowError);
    expect(error).toMatchObject({ messageAloneTooLarge: true, contextLimit: 1000 });
    expect((error as Error).message).toContain('history is unchanged');
    expect(log.filter((l) => l.startsWith('compress'))).toEqual([]);
    expect(history.getCurated()).toEqual(before);
    expect(history.length).toBe(24);
  });

  it('#12.2 a message that fits an emptier history still compresses (the guard is only for the impossible)', async () => {
    const log: string[] = [];
    const strategy = fakeStrategy({ log });
    const { handler } = await setup({ entries: [big(700), big(100)], strategy, reserve: 100 });
    await handler.ensureCompressionBeforeSend('p', 500);
    expect(log).toEqual(['compress@800']);
  });

  it('builds DensityConfig from the live density settings and the workspace root', async () => {
    let seen: DensityConfig | undefined;
    const strategy = fakeStrategy({
      optimize: (_h, config) => {
        seen = config;
        return nothing();
      },
    });
    const { handler } = await setup({
      entries: [big(10)],
      strategy,
      settings: {
        'compression.density.recencyPruning': true,
        'compression.density.recencyRetention': 5,
        'compression.density.shellFileOps': true,
        'compression.density.fileDedupe': false,
      },
    });
    await handler.ensureDensityOptimized();
    expect(seen).toEqual({
      readWritePruning: true,
      fileDedupe: false,
      recencyPruning: true,
      recencyRetention: 5,
      shellFileOps: true,
      pointerStyle: 'recall',
      workspaceRoot: '/ws',
    });
  });

  it('REQ-HD-002.9 optimize receives the raw history (with empty AI entries) and its indices apply to it', async () => {
    const empty = createAiMessage([]);
    const entries = [human('q'), empty, ...readFile('r', 'a.ts', 'A'.repeat(50)), ai('end')];
    let seen: readonly IContent[] = [];
    const strategy = fakeStrategy({
      optimize: (h) => {
        seen = [...h];
        return { removals: [2, 3], replacements: new Map(), metadata: EMPTY_DENSITY_METADATA };
      },
    });
    const { handler, history } = await setup({ entries, strategy });
    await handler.ensureDensityOptimized();
    expect(seen).toHaveLength(5);
    expect(seen[1]).toBe(empty);
    expect(history.getRawHistory()).toEqual([entries[0], empty, entries[4]]);
  });

  it('REQ-HD-001.10 threshold precedence: session setting, then profile, then the strategy default', async () => {
    const strategy = fakeStrategy({ defaultThreshold: 0.5 });
    const { handler, runtime } = await setup({ entries: [big(600)], strategy });
    expect(handler.compressionThreshold()).toBe(0.5);
    expect(handler.shouldCompress()).toBe(true);
    runtime.settings.replaceProfileLayer({ 'context-limit': 1000, 'compression-threshold': 0.7 });
    expect(handler.compressionThreshold()).toBe(0.7);
    expect(handler.shouldCompress()).toBe(false);
    runtime.settings.setFromString('compression-threshold', '0.55');
    expect(handler.compressionThreshold()).toBe(0.55);
    expect(handler.shouldCompress()).toBe(true);
  });
});
