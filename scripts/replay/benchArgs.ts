/**
 * The replay bench's command line. Kept apart from the entry point (which runs on import) so it can
 * be tested. `npm run bench:replay -- <flags>` appends the flags to the script's last command, so
 * that command must be the bench itself (see package.json): a formatter chained after it would
 * receive them instead.
 */
import path from 'node:path';

export interface BenchArgs {
  readonly corpus: string;
  readonly workers: number;
  readonly only?: string;
  /** Absolute path of the raw-runs JSON to write. */
  readonly json?: string;
  readonly docs: boolean;
  /**
   * `--limits 16000,32000,…`: replay at these context limits and print the window grid
   * (`benchGrid.ts`) instead of writing the docs' sections, which are laid out for the default
   * limits.
   */
  readonly limits?: readonly number[];
}

/** Thrown for a flag given without its value (`--json` last on the line). */
export class BenchUsageError extends Error {
  readonly code = 'BENCH_USAGE';
}

type ValueFlag = '--corpus' | '--workers' | '--only' | '--json' | '--limits';

/** `16000,32k` → [16000, 32000]; a usage error for anything but positive whole token counts. */
function parseLimits(value: string): number[] {
  const limits = value.split(',').map((part) => {
    const match = /^(\d+)(k?)$/i.exec(part.trim());
    const limit = match === null ? Number.NaN : Number(match[1]) * (match[2] === '' ? 1 : 1000);
    if (!Number.isInteger(limit) || limit <= 0)
      throw new BenchUsageError(
        `bench:replay: --limits takes context limits in tokens, e.g. --limits 16000,32k (got "${part}")`,
      );
    return limit;
  });
  return [...new Set(limits)].sort((a, b) => a - b);
}

export function parseBenchArgs(
  argv: readonly string[],
  defaults: { readonly corpus: string; readonly workers: number },
): BenchArgs {
  const value = (flag: ValueFlag) => {
    const at = argv.indexOf(flag);
    if (at === -1) return undefined;
    const given = argv[at + 1];
    if (given === undefined || given.startsWith('--')) {
      throw new BenchUsageError(`bench:replay: ${flag} needs a value, e.g. ${flag} <value>`);
    }
    return given;
  };
  const workers = Number(value('--workers') ?? defaults.workers);
  const only = value('--only');
  const json = value('--json');
  const limits = value('--limits');
  return {
    corpus: path.resolve(value('--corpus') ?? defaults.corpus),
    workers: Number.isInteger(workers) && workers > 0 ? workers : 1,
    ...(only === undefined ? {} : { only }),
    ...(json === undefined ? {} : { json: path.resolve(json) }),
    docs: !argv.includes('--no-docs') && limits === undefined,
    ...(limits === undefined ? {} : { limits: parseLimits(limits) }),
  };
}
