/**
 * The command-line flags every bench shares (`bench:replay`, `bench:proxy`, `bench:proxy:length`):
 * a flag's value, token counts (`1m`, `400k`, `1500000`), worker counts, and how an entry point
 * reports a bad flag (its message and exit code 2, never a stack trace). One parser, so the benches
 * cannot disagree on what a flag accepts.
 */
import { DenseError, errorMessage } from '@dense/core';

/** A bad flag: the message says which bench, which flag and what it accepts. */
export class BenchOptionError extends DenseError {
  readonly code = 'BENCH_OPTION_INVALID';
}

/** The exit code of a run stopped by a bad flag. */
export const USAGE_EXIT_CODE = 2;

/** The value after `name` in `argv`; undefined when the flag is absent. */
export function flagValue(
  bench: string,
  argv: readonly string[],
  name: string,
): string | undefined {
  const at = argv.indexOf(name);
  if (at === -1) return undefined;
  const value = argv[at + 1];
  if (value === undefined || value.startsWith('--')) {
    throw new BenchOptionError(`${bench}: ${name} needs a value, e.g. ${name} <value>`);
  }
  return value;
}

const MULTIPLIERS: Readonly<Record<string, number>> = { '': 1, k: 1_000, m: 1_000_000 };

/** `1m`, `200k`, `1.5M`, `800000` or `800_000` as tokens; undefined when it is none of those. */
export function parseTokens(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)([km]?)$/i.exec(text.trim().replaceAll('_', ''));
  if (match === null) return undefined;
  const tokens = Math.round(Number(match[1]) * (MULTIPLIERS[match[2]?.toLowerCase() ?? ''] ?? 1));
  return Number.isSafeInteger(tokens) && tokens > 0 ? tokens : undefined;
}

/** A comma-separated list of token counts; undefined when any part is not one. */
export function parseTokenList(text: string): number[] | undefined {
  const counts = text.split(',').map(parseTokens);
  return counts.every((count) => count !== undefined) ? counts : undefined;
}

/** `--workers`' value (a whole number ≥ 1), or `fallback` when the flag is absent. */
export function parseWorkers(bench: string, argv: readonly string[], fallback: number): number {
  const text = flagValue(bench, argv, '--workers');
  const count = text === undefined ? fallback : Number(text);
  if (!Number.isInteger(count) || count < 1) {
    throw new BenchOptionError(
      `${bench}: --workers takes a whole number ≥ 1 (e.g. --workers 2); got "${text ?? ''}"`,
    );
  }
  return count;
}

export interface BenchExit {
  readonly exit: (code: number) => void;
  readonly error: (message: string) => void;
}

/**
 * Runs a bench's `main` and exits with its code; a bad flag prints its message and exits with
 * `USAGE_EXIT_CODE`, any other failure prints its message (no stack) and exits with 1.
 */
export async function runBench(
  main: () => Promise<number>,
  io: BenchExit = { exit: (code) => process.exit(code), error: console.error },
): Promise<void> {
  try {
    io.exit(await main());
  } catch (error) {
    io.error(errorMessage(error));
    io.exit(error instanceof BenchOptionError ? USAGE_EXIT_CODE : 1);
  }
}
