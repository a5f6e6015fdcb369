import { describe, expect, it } from 'vitest';
import * as strategyModule from './HighDensityStrategy.js';
import { HighDensityStrategy } from './HighDensityStrategy.js';
import * as vocabulary from './densityVocabulary.js';
import { COMPRESSION_STRATEGIES, type DensityConfig } from './types.js';
import { getSettingSpec } from '../../settings/settingsRegistry.js';
import { getCompressionStrategy } from './compressionStrategyFactory.js';
import {
  ai,
  human,
  readFile,
  replaceInFile,
  toolRoundTrip,
} from '../../test-utils/historyBuilders.js';
import { applyDensityResultToArray } from './density/optimize/applyDensityResultToArray.js';
import { deepFreeze } from './density/test-utils/deepFreeze.js';

const ALL_ON: DensityConfig = {
  readWritePruning: true,
  fileDedupe: true,
  recencyPruning: true,
  recencyRetention: 1,
  workspaceRoot: '/workspace',
};
const long = (label: string) => `${label}\n${'some content line\n'.repeat(8)}`;

describe('HighDensityStrategy', () => {
  it('REQ-HD-004.1 high-density is one of the compression strategies', () => {
    expect(COMPRESSION_STRATEGIES).toContain('high-density');
  });

  it('REQ-HD-004.3 declares its name, requiresLLM false and a continuous 0.85 trigger', () => {
    const strategy = new HighDensityStrategy();
    expect(strategy.name).toBe('high-density');
    expect(strategy.requiresLLM).toBe(false);
    expect(strategy.trigger).toEqual({ mode: 'continuous', defaultThreshold: 0.85 });
    expect(typeof strategy.optimize).toBe('function');
  });

  it('REQ-HD-004.2 the factory returns a HighDensityStrategy for high-density', () => {
    expect(getCompressionStrategy('high-density')).toBeInstanceOf(HighDensityStrategy);
  });

  it('REQ-HD-004.4 the compression.strategy setting offers high-density', () => {
    const spec = getSettingSpec('compression.strategy');
    expect(spec.type === 'enum' ? spec.enumValues : []).toContain('high-density');
  });

  it('re-exports the shared vocabulary from the one module that defines it', () => {
    expect(strategyModule.READ_TOOLS).toBe(vocabulary.READ_TOOLS);
    expect(strategyModule.WRITE_TOOLS).toBe(vocabulary.WRITE_TOOLS);
    expect(strategyModule.PRUNED_POINTER).toBe('[Result pruned — re-run tool to retrieve]');
    expect(strategyModule.formatFileInclusion).toBe(vocabulary.formatFileInclusion);
    expect(strategyModule.formatFileInclusions).toBe(vocabulary.formatFileInclusions);
    expect(strategyModule.findFileInclusions).toBe(vocabulary.findFileInclusions);
  });

  it('REQ-HD-001.5 optimize returns removals, replacements and metadata against raw indices', () => {
    const history = [
      human(`see\n${vocabulary.formatFileInclusion('a.ts', long('v1'))}`),
      ...readFile('r1', 'a.ts', long('A1')),
      ...replaceInFile('w1', 'a.ts'),
      human(vocabulary.formatFileInclusion('a.ts', long('v2'))),
      ...toolRoundTrip('s1', 'run_shell_command', { command: 'ls' }, long('ls1')),
      ...toolRoundTrip('s2', 'run_shell_command', { command: 'ls' }, long('ls2')),
    ];
    const result = new HighDensityStrategy().optimize(deepFreeze(history), ALL_ON);
    expect(result.removals).toEqual([1, 2]);
    expect([...result.replacements.keys()]).toEqual([0, 7]);
    expect(result.metadata).toEqual({
      readWrite: 1,
      dedup: 1,
      recency: 1,
    });
  });

  it('REQ-HD-005.10 REQ-HD-006.4 REQ-HD-007.6 does nothing with every pass off', () => {
    const history = [
      ...readFile('r1', 'a.ts', long('A1')),
      ...replaceInFile('w1', 'a.ts'),
      human(vocabulary.formatFileInclusion('a.ts', long('v1'))),
      human(vocabulary.formatFileInclusion('a.ts', long('v2'))),
    ];
    const result = new HighDensityStrategy().optimize(history, {
      ...ALL_ON,
      readWritePruning: false,
      fileDedupe: false,
      recencyPruning: false,
    });
    expect(result.removals).toEqual([]);
    expect(result.replacements.size).toBe(0);
    expect(result.metadata).toEqual({
      readWrite: 0,
      dedup: 0,
      recency: 0,
    });
  });

  it('REQ-HD-005.10 with only READ→WRITE off, the other passes still run', () => {
    const history = [
      ...readFile('r1', 'a.ts', long('A1')),
      ...replaceInFile('w1', 'a.ts'),
      human(vocabulary.formatFileInclusion('a.ts', long('v1'))),
      human(vocabulary.formatFileInclusion('a.ts', long('v2'))),
    ];
    const result = new HighDensityStrategy().optimize(history, {
      ...ALL_ON,
      readWritePruning: false,
      fileDedupe: true,
      recencyPruning: false,
    });
    expect(result.metadata).toEqual({
      readWrite: 0,
      dedup: 1,
      recency: 0,
    });
  });

  it('returns an empty result for an empty or clean history', () => {
    const strategy = new HighDensityStrategy();
    expect(strategy.optimize([], ALL_ON).removals).toEqual([]);
    const clean = [human('hi'), ai('hello'), ...readFile('r', 'a.ts', 'x')];
    const result = strategy.optimize(clean, ALL_ON);
    expect(result.removals).toEqual([]);
    expect(result.replacements.size).toBe(0);
  });

  it('golden scenario: a read–edit–reread session shrinks to what is still true', () => {
    const history = [
      human(
        `Fix the bug in src/a.ts\n--- Content from referenced files ---\n${vocabulary.formatFileInclusion('src/a.ts', long('v0'))}\n`,
      ),
      ...readFile('r1', 'src/a.ts', long('v0')),
      ...replaceInFile('w1', 'src/a.ts', 'old_string not found'),
      ...readFile('r2', './src/a.ts', long('v0 again')),
      ...replaceInFile('w2', '/workspace/src/a.ts'),
      ...readFile('r3', 'src/a.ts', long('v1')),
      human(`Now look again\n${vocabulary.formatFileInclusion('src/a.ts', long('v1'))}`),
      ai('Looks right.'),
    ];
    const strategy = new HighDensityStrategy();
    const config = { ...ALL_ON, recencyPruning: false };
    const result = strategy.optimize(deepFreeze(history), config);
    expect(result.metadata).toEqual({
      readWrite: 2,
      dedup: 1,
      recency: 0,
    });
    const after = applyDensityResultToArray(history, result);
    const ids = after.flatMap((e) =>
      e.blocks.flatMap((b) => (b.type === 'tool_call' ? [b.id] : [])),
    );
    expect(ids).toEqual(['w1', 'w2', 'r3']);
    expect(strategy.optimize(after, config).removals).toEqual([]);
  });
});
