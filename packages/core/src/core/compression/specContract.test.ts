/**
 * Written only against the spec's interfaces (requirements REQ-HD-009.5/009.6, the technical
 * spec's `AgentRuntimeContext.ephemerals`, pseudocode 000 lines 22 and 37–39): code written to
 * the spec must compile against Dense and behave as the spec says.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { createAgentRuntimeContext } from '../../runtime/createAgentRuntimeContext.js';
import { SettingsService } from '../../settings/SettingsService.js';
import { getSettingDefault, type EphemeralSettings } from '../../settings/settingsRegistry.js';
import { HistoryService } from '../../services/history/HistoryService.js';
import type { IContent } from '../../services/history/IContent.js';
import { human, readFile, replaceInFile, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import { testCompressionHandler } from '../../test-utils/testCompressionHandler.js';
import { getCompressionStrategy } from './compressionStrategyFactory.js';
import { formatFileInclusion, PRUNED_POINTER } from './HighDensityStrategy.js';
import type {
  CompressionContext,
  CompressionResult,
  CompressionStrategy,
  DensityConfig,
  DensityResult,
} from './types.js';

/** What a strategy written from pseudocode 000 read through `context.runtimeContext.ephemerals`. */
interface SpecReads {
  readonly preserveThreshold: number;
  readonly tailSize: number;
  readonly threshold: number;
  readonly contextLimit: number;
  readonly targetTokens: number;
  readonly density: readonly [boolean, boolean, boolean, number];
}

/** Pseudocode 000, STEP 1 and STEP 2, as the spec writes them; keeps only the tail. */
function specStrategy(reads: SpecReads[]): CompressionStrategy {
  return {
    name: 'high-density',
    requiresLLM: false,
    trigger: { mode: 'continuous', defaultThreshold: 0.85 },
    compress(context: CompressionContext): Promise<CompressionResult> {
      const history = context.history;
      const preserveThreshold = context.runtimeContext.ephemerals.preserveThreshold();
      const tailSize = Math.ceil(history.length * preserveThreshold);
      const threshold = context.runtimeContext.ephemerals.compressionThreshold();
      const contextLimit = context.runtimeContext.ephemerals.contextLimit();
      const targetTokens = Math.floor(threshold * contextLimit * 0.6);
      const { ephemerals } = context.runtimeContext;
      reads.push({
        preserveThreshold,
        tailSize,
        threshold,
        contextLimit,
        targetTokens,
        density: [
          ephemerals.densityReadWritePruning(),
          ephemerals.densityFileDedupe(),
          ephemerals.densityRecencyPruning(),
          ephemerals.densityRecencyRetention(),
        ],
      });
      const newHistory = history.slice(history.length - tailSize);
      return Promise.resolve({
        kind: 'applied',
        newHistory,
        metadata: {
          originalMessageCount: history.length,
          compressedMessageCount: newHistory.length,
          strategyUsed: 'high-density',
          llmCallMade: false,
        },
      });
    },
  };
}

async function compressWith(settings: EphemeralSettings, entries: readonly IContent[]) {
  const reads: SpecReads[] = [];
  const strategy = specStrategy(reads);
  const history = new HistoryService();
  history.addAll(entries);
  await history.waitForTokenUpdates();
  const { handler, runtime } = testCompressionHandler({
    history,
    settings,
    overrides: { resolveStrategy: () => strategy },
  });
  return { handler, runtime, history, reads };
}

const ten = Array.from({ length: 10 }, (_, i) => human(`message ${i}`));

describe('the spec interfaces (#32.5)', () => {
  it('#32.5 REQ-HD-009.5 AgentRuntimeContext.ephemerals has the density accessors, registry defaults', () => {
    const settings = new SettingsService();
    const runtime = createAgentRuntimeContext({ settings, workspaceRoot: '/ws' });
    const { ephemerals } = runtime;
    expectTypeOf(ephemerals.densityReadWritePruning).returns.toEqualTypeOf<boolean>();
    expectTypeOf(ephemerals.densityFileDedupe).returns.toEqualTypeOf<boolean>();
    expectTypeOf(ephemerals.densityRecencyPruning).returns.toEqualTypeOf<boolean>();
    expectTypeOf(ephemerals.densityRecencyRetention).returns.toEqualTypeOf<number>();
    expectTypeOf(ephemerals.preserveThreshold).returns.toEqualTypeOf<number>();
    expectTypeOf(ephemerals.compressionThreshold).returns.toEqualTypeOf<number>();
    expectTypeOf(ephemerals.contextLimit).returns.toEqualTypeOf<number>();

    expect(ephemerals.densityReadWritePruning()).toBe(true);
    expect(ephemerals.densityFileDedupe()).toBe(true);
    expect(ephemerals.densityRecencyPruning()).toBe(false);
    expect(ephemerals.densityRecencyRetention()).toBe(3);
    expect(ephemerals.densityReadWritePruning()).toBe(
      getSettingDefault('compression.density.readWritePruning'),
    );
    expect(ephemerals.densityRecencyRetention()).toBe(
      getSettingDefault('compression.density.recencyRetention'),
    );
    expect(ephemerals.preserveThreshold()).toBe(getSettingDefault('compression.preserveThreshold'));
    expect(ephemerals.compressionThreshold()).toBe(0.85);
    expect(runtime.config.getWorkspaceRoot()).toBe('/ws');
  });

  it('#32.5 REQ-HD-009.5 the accessors follow /set and the profile', () => {
    const settings = new SettingsService({ profile: { 'compression-threshold': 0.75 } });
    const { ephemerals } = createAgentRuntimeContext({
      settings,
      workspaceRoot: '/ws',
      modelContextLimit: 200_000,
    });
    expect(ephemerals.compressionThreshold()).toBe(0.75);
    expect(ephemerals.contextLimit()).toBe(200_000);
    settings.setFromString('compression.density.readWritePruning', 'false');
    settings.setFromString('compression.density.fileDedupe', 'false');
    settings.setFromString('compression.density.recencyPruning', 'true');
    settings.setFromString('compression.density.recencyRetention', '7');
    settings.setFromString('compression.preserveThreshold', '0.3');
    settings.setFromString('compression-threshold', '0.5');
    settings.setFromString('context-limit', '32000');
    expect(ephemerals.densityReadWritePruning()).toBe(false);
    expect(ephemerals.densityFileDedupe()).toBe(false);
    expect(ephemerals.densityRecencyPruning()).toBe(true);
    expect(ephemerals.densityRecencyRetention()).toBe(7);
    expect(ephemerals.preserveThreshold()).toBe(0.3);
    expect(ephemerals.compressionThreshold()).toBe(0.5);
    expect(ephemerals.contextLimit()).toBe(32_000);
  });

  it('#32.5 pseudocode 000 l.22, 37-39: compress(context) reads context.runtimeContext.ephemerals', async () => {
    const { handler, history, reads } = await compressWith(
      { 'context-limit': 10_000, 'compression.artifactTrail': false },
      ten,
    );
    await handler.performCompression('p1');
    expect(reads).toEqual([
      {
        preserveThreshold: 0.4,
        tailSize: 4,
        threshold: 0.85,
        contextLimit: 10_000,
        targetTokens: Math.floor(0.85 * 10_000 * 0.6),
        density: [true, true, false, 3],
      },
    ]);
    // The strategy kept 4 entries; with the trail off, the user's dropped messages still come
    // back first (#33.7), as one entry Dense writes (and its acknowledgement when one is needed).
    const raw = history.getRawHistory();
    const pinned = raw.filter((e) => e.speaker === 'human' && e.metadata?.artifactTrail === true);
    expect(pinned).toHaveLength(1);
    expect(raw.filter((entry) => entry.metadata?.synthetic !== true)).toHaveLength(4);
  });

  it('#32.5 the orchestrator passes what /set changed to the next compress(context)', async () => {
    const { handler, runtime, reads } = await compressWith({ 'context-limit': 10_000 }, ten);
    runtime.settings.setFromString('compression.preserveThreshold', '0.2');
    runtime.settings.setFromString('compression-threshold', '0.5');
    runtime.settings.setFromString('context-limit', '20000');
    runtime.settings.setFromString('compression.density.recencyPruning', 'true');
    await handler.performCompression('p1');
    expect(reads[0]).toMatchObject({
      preserveThreshold: 0.2,
      tailSize: 2,
      threshold: 0.5,
      contextLimit: 20_000,
      targetTokens: 6_000,
      density: [true, true, true, 3],
    });
  });
});

describe('one snapshot per compression (#32.5)', () => {
  it('#32.5 ephemerals and context.settings agree for the whole compression, whatever /set does meanwhile', async () => {
    const seen: unknown[] = [];
    const history = new HistoryService();
    history.addAll(ten);
    await history.waitForTokenUpdates();
    const { handler, runtime } = testCompressionHandler({
      history,
      settings: { 'context-limit': 10_000 },
      overrides: {
        resolveStrategy: () => ({
          ...specStrategy([]),
          compress(context: CompressionContext) {
            runtime.settings.setFromString('compression.preserveThreshold', '0.9');
            runtime.settings.setFromString('context-limit', '90000');
            const { ephemerals } = context.runtimeContext;
            seen.push(
              ephemerals.preserveThreshold(),
              context.settings['compression.preserveThreshold'],
              ephemerals.contextLimit(),
              context.settings.contextLimit,
            );
            return specStrategy([]).compress(context);
          },
        }),
      },
    });
    await handler.performCompression('p1');
    expect(seen).toEqual([0.4, 0.4, 10_000, 10_000]);
  });
});

describe('optimize(history, config: DensityConfig) with the spec fields (#32.5)', () => {
  const optimize = (history: readonly IContent[], config: DensityConfig): DensityResult => {
    const strategy = getCompressionStrategy('high-density');
    if (!strategy.optimize) throw new Error('high-density has no optimize()');
    return strategy.optimize(history, config);
  };
  const spec: DensityConfig = {
    readWritePruning: true,
    fileDedupe: true,
    recencyPruning: false,
    recencyRetention: 3,
    workspaceRoot: '/ws',
  };
  const file = (label: string) => `${label}\n${'a line of the file\n'.repeat(20)}`;
  const readThenWrite = [
    human('fix src/a.ts'),
    ...readFile('r1', 'src/a.ts', file('v1')),
    ...replaceInFile('w1', '/ws/src/a.ts'),
  ];

  it('#32.5 REQ-HD-001.9 REQ-HD-005.1 readWritePruning on removes a read a later write superseded', () => {
    const result = optimize(readThenWrite, spec);
    expect(result.removals).toEqual([1, 2]);
    expect(result.metadata.readWrite).toBe(1);
  });

  it('#32.5 REQ-HD-005.10 readWritePruning off leaves it', () => {
    const result = optimize(readThenWrite, { ...spec, readWritePruning: false });
    expect(result.removals).toEqual([]);
    expect(result.replacements.size).toBe(0);
  });

  it('#32.5 REQ-HD-006 fileDedupe on cuts the earlier inclusion of a file included again; off keeps it', () => {
    const history = [
      human(`see\n${formatFileInclusion('src/b.ts', file('b1'))}`),
      human(`again\n${formatFileInclusion('src/b.ts', file('b2'))}`),
    ];
    expect([...optimize(history, spec).replacements.keys()]).toEqual([0]);
    expect(optimize(history, { ...spec, fileDedupe: false }).replacements.size).toBe(0);
  });

  it('#32.5 REQ-HD-007 recencyPruning keeps recencyRetention results per tool, the spec pointer in the rest', () => {
    const history = [1, 2, 3].flatMap((n) =>
      toolRoundTrip(`s${n}`, 'run_shell_command', { command: 'ls' }, file(`ls ${n}`)),
    );
    expect(optimize(history, spec).replacements.size).toBe(0);
    const result = optimize(history, { ...spec, recencyPruning: true, recencyRetention: 1 });
    expect([...result.replacements.keys()]).toEqual([1, 3]);
    const pruned = result.replacements.get(1)?.blocks[0];
    expect(pruned?.type === 'tool_response' ? pruned.result : undefined).toBe(PRUNED_POINTER);
  });

  it('#32.5 the orchestrator builds the spec config from the ephemerals and the workspace root', async () => {
    const { handler, runtime } = await compressWith(
      { 'compression.density.recencyPruning': true },
      ten,
    );
    const { ephemerals } = runtime;
    expect(handler.densityConfig()).toMatchObject({
      readWritePruning: ephemerals.densityReadWritePruning(),
      fileDedupe: ephemerals.densityFileDedupe(),
      recencyPruning: true,
      recencyRetention: ephemerals.densityRecencyRetention(),
      workspaceRoot: runtime.config.getWorkspaceRoot(),
    } satisfies DensityConfig);
  });
});
