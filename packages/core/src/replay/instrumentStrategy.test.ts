import { describe, expect, it } from 'vitest';
import { HighDensityStrategy } from '../core/compression/HighDensityStrategy.js';
import { MiddleOutStrategy } from '../core/compression/MiddleOutStrategy.js';
import type { CompressionSettings } from '../core/compression/CompressionSettings.js';
import { instrumentStrategy, type StrategyObserver } from './instrumentStrategy.js';
import { withShellFileOps } from './baselines/withShellFileOps.js';

const observer: StrategyObserver = { optimized: () => undefined, compressing: () => undefined };

describe('instrumentStrategy', () => {
  it("#35.2 keeps the strategy's compression target: the density schedule prices a pressure batch against the compression as in the CLI", () => {
    const strategy = new HighDensityStrategy();
    const wrapped = instrumentStrategy(strategy, observer, () => 0);
    const settings = {
      contextLimit: 128_000,
      'compression-threshold': undefined,
      'compression.density.compressHeadroom': 0.6,
    } as unknown as CompressionSettings;
    expect(wrapped.compressedTokensAtMost).toBeDefined();
    expect(wrapped.compressedTokensAtMost?.(settings, 1_000)).toBe(
      strategy.compressedTokensAtMost(settings, 1_000),
    );
  });

  it('#35.2 high-density+shell keeps it too (the replay priced that policy without it)', () => {
    const strategy = new HighDensityStrategy();
    const settings = {
      contextLimit: 200_000,
      'compression-threshold': undefined,
      'compression.density.compressHeadroom': 0.6,
    } as unknown as CompressionSettings;
    expect(withShellFileOps(strategy).compressedTokensAtMost?.(settings, 0)).toBe(
      strategy.compressedTokensAtMost(settings, 0),
    );
  });

  it('#35.2 a strategy without a compression target gets none', () => {
    const wrapped = instrumentStrategy(new MiddleOutStrategy(), observer, () => 0);
    expect(wrapped.compressedTokensAtMost).toBeUndefined();
  });
});
