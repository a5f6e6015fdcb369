/**
 * The gateway bench's command-line options (`npm run bench:gateway -- --conversations 8 …`; the
 * flags and their defaults are listed in bench-gateway.ts's header).
 */
import { BenchOptionError, flagValue, parseTokens } from '../benchFlags.js';

export interface GatewayOptions {
  readonly conversations: number;
  readonly turns: number;
  readonly turnTokens: number;
  readonly thinkMs: number;
  readonly levels: readonly number[];
  readonly levelMs: number;
  readonly longTokens: number;
  readonly docs: boolean;
}

function wholeNumber(
  bench: string,
  argv: readonly string[],
  name: string,
  fallback: number,
  min = 1,
): number {
  const text = flagValue(bench, argv, name);
  if (text === undefined) return fallback;
  const value = parseTokens(text) ?? (text.trim() === '0' ? 0 : undefined);
  if (value === undefined || value < min)
    throw new BenchOptionError(`${bench}: ${name} takes a whole number ≥ ${min}; got "${text}"`);
  return value;
}

/** The options `argv` gives; a bad value throws BenchOptionError naming `bench`. */
export function parseGatewayOptions(bench: string, argv: readonly string[]): GatewayOptions {
  const levelsText = flagValue(bench, argv, '--levels');
  const levels = (levelsText ?? '1,4,16').split(',').map((part) => Number(part));
  if (levels.some((level) => !Number.isInteger(level) || level < 1))
    throw new BenchOptionError(`${bench}: --levels takes whole numbers ≥ 1, e.g. 1,2,4,8`);
  return {
    conversations: wholeNumber(bench, argv, '--conversations', 100),
    turns: wholeNumber(bench, argv, '--turns', 25, 2),
    turnTokens: wholeNumber(bench, argv, '--turn-tokens', 8_000),
    thinkMs: wholeNumber(bench, argv, '--think-ms', 12_000, 0),
    levels,
    levelMs: wholeNumber(bench, argv, '--level-ms', 4_000, 2_000),
    longTokens: wholeNumber(bench, argv, '--long-tokens', 1_000_000, 0),
    docs: argv.includes('--docs'),
  };
}
