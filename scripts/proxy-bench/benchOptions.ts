/**
 * The proxy benches' command-line flags, parsed into one options object with actionable errors
 * (`BenchOptionError`, code `BENCH_OPTION_INVALID`): `npm run bench:proxy` (corpus replay) and
 * `npm run bench:proxy:length` (cost per call by session length). Pure; the flag syntax is
 * `benchFlags.ts`, shared with `bench:replay`.
 */
import {
  BenchOptionError,
  flagValue,
  parseTokenList,
  parseTokens,
  parseWorkers,
} from '../benchFlags.js';

/** No client window below this: Claude Code would compact before the session's first reply. */
export const MIN_WINDOW_TOKENS = 100_000;

/** The lengths of history the length bench reports by default (tokens). */
export const DEFAULT_LENGTHS = [100_000, 200_000, 400_000, 800_000] as const;

export interface ProxyBenchOptions {
  readonly corpus: string | undefined;
  readonly only: string | undefined;
  readonly out: string | undefined;
  /** Sessions replayed at once (≥ 1). */
  readonly workers: number;
  /**
   * The client's window (tokens) when set: recorded compactions are dropped and each side's
   * client compacts only past that window's threshold. Undefined: the recorded window.
   */
  readonly window: number | undefined;
  /** The proxy's working budget (tokens, or 'off'); undefined: its default for each request. */
  readonly workingBudget: number | 'off' | undefined;
  /**
   * A directory to write what each side sent upstream to (SentLog.ts: one JSONL file per session
   * and side); undefined: nothing written.
   */
  readonly sent: string | undefined;
}

export interface LengthBenchOptions {
  readonly out: string | undefined;
  /** Increasing history lengths (tokens) to report the cost per call at. */
  readonly lengths: readonly number[];
}

/** `--window`'s value as tokens (at least `MIN_WINDOW_TOKENS`). */
export function parseWindow(text: string): number {
  const tokens = parseTokens(text);
  if (tokens === undefined || tokens < MIN_WINDOW_TOKENS) {
    throw new BenchOptionError(
      `bench:proxy: --window takes the client's window in tokens, at least ${MIN_WINDOW_TOKENS.toLocaleString('en')} ` +
        `(e.g. --window 1m, --window 200k, --window 400000); got "${text}"`,
    );
  }
  return tokens;
}

/** `--working-budget`'s value: tokens (e.g. 60k) or `off`. */
export function parseWorkingBudget(text: string): number | 'off' {
  if (text === 'off') return 'off';
  const tokens = parseTokens(text);
  if (tokens === undefined) {
    throw new BenchOptionError(
      `bench:proxy: --working-budget takes tokens or off (e.g. --working-budget 60k); got "${text}"`,
    );
  }
  return tokens;
}

/** The flags of `npm run bench:proxy`. */
export function parseProxyBenchOptions(argv: readonly string[]): ProxyBenchOptions {
  const flag = (name: string) => flagValue('bench:proxy', argv, name);
  const workers = parseWorkers('bench:proxy', argv, 1);
  const window = flag('--window');
  const budget = flag('--working-budget');
  return {
    corpus: flag('--corpus'),
    only: flag('--only'),
    out: flag('--out'),
    workers,
    window: window === undefined ? undefined : parseWindow(window),
    workingBudget: budget === undefined ? undefined : parseWorkingBudget(budget),
    sent: flag('--sent'),
  };
}

/** The flags of `npm run bench:proxy:length`: `--lengths 100k,200k,…` and `--out <file>`. */
export function parseLengthBenchOptions(argv: readonly string[]): LengthBenchOptions {
  const text = flagValue('bench:proxy:length', argv, '--lengths');
  const lengths = text === undefined ? [...DEFAULT_LENGTHS] : parseTokenList(text);
  const increasing = lengths?.every((length, i) => i === 0 || length > (lengths[i - 1] ?? 0));
  if (lengths === undefined || !increasing) {
    throw new BenchOptionError(
      `bench:proxy:length: --lengths takes increasing token counts separated by commas ` +
        `(e.g. --lengths 100k,200k,400k,800k); got "${text ?? ''}"`,
    );
  }
  return { out: flagValue('bench:proxy:length', argv, '--out'), lengths };
}
