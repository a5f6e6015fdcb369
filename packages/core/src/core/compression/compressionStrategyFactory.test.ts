import { describe, expect, it } from 'vitest';
import { UnknownCompressionStrategyError } from './compressionErrors.js';
import {
  getCompressionStrategy,
  isCompressionStrategyName,
  parseCompressionStrategyName,
} from './compressionStrategyFactory.js';
import { HighDensityStrategy } from './HighDensityStrategy.js';
import { MiddleOutStrategy } from './MiddleOutStrategy.js';
import { OneShotStrategy } from './OneShotStrategy.js';
import { TopDownTruncationStrategy } from './TopDownTruncationStrategy.js';
import { COMPRESSION_STRATEGIES } from './types.js';

const CLASSIC = [
  ['middle-out', MiddleOutStrategy, true],
  ['top-down-truncation', TopDownTruncationStrategy, false],
  ['one-shot', OneShotStrategy, true],
] as const;

describe('getCompressionStrategy', () => {
  it.each(CLASSIC)('returns a %s strategy', (name, type, requiresLLM) => {
    const strategy = getCompressionStrategy(name);
    expect(strategy).toBeInstanceOf(type);
    expect(strategy.name).toBe(name);
    expect(strategy.requiresLLM).toBe(requiresLLM);
  });

  it('REQ-HD-004.2 returns a HighDensityStrategy for high-density', () => {
    const strategy = getCompressionStrategy('high-density');
    expect(strategy).toBeInstanceOf(HighDensityStrategy);
    expect(strategy.name).toBe('high-density');
  });

  it('builds a strategy for every registered name, named after it', () => {
    for (const name of COMPRESSION_STRATEGIES) {
      expect(getCompressionStrategy(name).name).toBe(name);
    }
  });

  it.each(CLASSIC)('REQ-HD-001.3 %s declares a threshold trigger with default 0.85', (name) => {
    expect(getCompressionStrategy(name).trigger).toEqual({
      mode: 'threshold',
      defaultThreshold: 0.85,
    });
  });

  it.each(CLASSIC)('REQ-HD-001.4 %s does not implement optimize', (name, type) => {
    const strategy = getCompressionStrategy(name);
    expect(strategy.optimize).toBeUndefined();
    expect('optimize' in strategy).toBe(false);
    expect('optimize' in type.prototype).toBe(false);
  });
});

describe('parseCompressionStrategyName', () => {
  it.each(COMPRESSION_STRATEGIES)('accepts %s', (name) => {
    expect(parseCompressionStrategyName(name)).toBe(name);
    expect(isCompressionStrategyName(name)).toBe(true);
  });

  it.each([['middleout'], ['Middle-Out'], [' one-shot'], [''], [42], [undefined], [null]])(
    'rejects %j with a typed error listing the valid names',
    (value) => {
      let caught: unknown;
      try {
        parseCompressionStrategyName(value);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(UnknownCompressionStrategyError);
      const error = caught as UnknownCompressionStrategyError;
      expect(error.code).toBe('UNKNOWN_COMPRESSION_STRATEGY');
      expect(error.value).toBe(value);
      for (const name of COMPRESSION_STRATEGIES) expect(error.message).toContain(name);
      expect(error.validNames).toEqual(COMPRESSION_STRATEGIES);
    },
  );

  it('suggests the closest name for a typo', () => {
    expect(() => parseCompressionStrategyName('top-down-trunc')).toThrow(
      /Did you mean 'top-down-truncation'\?/,
    );
  });
});
