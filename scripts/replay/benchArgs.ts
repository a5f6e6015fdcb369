/**
 * The replay bench's command line. Kept apart from the entry point (which runs on import) so it can
 * be tested. `npm run bench:replay -- <flags>` appends the flags to the script's last command, so
 * that command must be the bench itself (see package.json): a formatter chained after it would
 * receive them instead.
 */
import path from 'node:path';
import { BenchOptionError, flagValue, parseTokenList, parseWorkers } from '../benchFlags.js';

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

type ValueFlag = '--corpus' | '--only' | '--json' | '--limits';

/** `16000,32k,1m` → [16000, 32000, 1000000], sorted, each once. */
function parseLimits(value: string): number[] {
  const limits = parseTokenList(value);
  if (limits === undefined) {
    throw new BenchOptionError(
      `bench:replay: --limits takes context limits in tokens, e.g. --limits 16000,32k,1m (got "${value}")`,
    );
  }
  return [...new Set(limits)].sort((a, b) => a - b);
}

export function parseBenchArgs(
  argv: readonly string[],
  defaults: { readonly corpus: string; readonly workers: number },
): BenchArgs {
  const value = (flag: ValueFlag) => flagValue('bench:replay', argv, flag);
  const only = value('--only');
  const json = value('--json');
  const limits = value('--limits');
  return {
    corpus: path.resolve(value('--corpus') ?? defaults.corpus),
    workers: parseWorkers('bench:replay', argv, defaults.workers),
    ...(only === undefined ? {} : { only }),
    ...(json === undefined ? {} : { json: path.resolve(json) }),
    docs: !argv.includes('--no-docs') && limits === undefined,
    ...(limits === undefined ? {} : { limits: parseLimits(limits) }),
  };
}
