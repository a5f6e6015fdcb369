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
}

/** Thrown for a flag given without its value (`--json` last on the line). */
export class BenchUsageError extends Error {
  readonly code = 'BENCH_USAGE';
}

type ValueFlag = '--corpus' | '--workers' | '--only' | '--json';

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
  return {
    corpus: path.resolve(value('--corpus') ?? defaults.corpus),
    workers: Number.isInteger(workers) && workers > 0 ? workers : 1,
    ...(only === undefined ? {} : { only }),
    ...(json === undefined ? {} : { json: path.resolve(json) }),
    docs: !argv.includes('--no-docs'),
  };
}
