/** Turns a strategy name (from settings, a profile or a flag) into the strategy that implements it. */
import { UnknownCompressionStrategyError } from './compressionErrors.js';
import { HighDensityStrategy } from './HighDensityStrategy.js';
import { MiddleOutStrategy } from './MiddleOutStrategy.js';
import { OneShotStrategy } from './OneShotStrategy.js';
import { TopDownTruncationStrategy } from './TopDownTruncationStrategy.js';
import {
  COMPRESSION_STRATEGIES,
  type CompressionStrategy,
  type CompressionStrategyName,
} from './types.js';

const NAMES: ReadonlySet<string> = new Set(COMPRESSION_STRATEGIES);

export function isCompressionStrategyName(value: unknown): value is CompressionStrategyName {
  return typeof value === 'string' && NAMES.has(value);
}

/**
 * `value` as a strategy name. Throws `UnknownCompressionStrategyError` (code
 * `UNKNOWN_COMPRESSION_STRATEGY`, listing the valid names) for anything else — including names
 * that differ only in case or surrounding spaces, so a typo is never silently reinterpreted.
 */
export function parseCompressionStrategyName(value: unknown): CompressionStrategyName {
  if (isCompressionStrategyName(value)) return value;
  throw new UnknownCompressionStrategyError(value);
}

/** A fresh instance of the named strategy. Strategies hold no state between calls. */
export function getCompressionStrategy(name: CompressionStrategyName): CompressionStrategy {
  switch (name) {
    case 'middle-out':
      return new MiddleOutStrategy();
    case 'top-down-truncation':
      return new TopDownTruncationStrategy();
    case 'one-shot':
      return new OneShotStrategy();
    case 'high-density':
      return new HighDensityStrategy();
    default:
      return assertNever(name);
  }
}

function assertNever(name: never): never {
  throw new UnknownCompressionStrategyError(name);
}
