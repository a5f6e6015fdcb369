/**
 * The proxy benches' command-line flags, parsed into one options object with actionable errors
 * (`BenchOptionError`, code `BENCH_OPTION_INVALID`): `npm run bench:proxy` (corpus replay) and
 * `npm run bench:proxy:length` (cost per call by session length). Pure.
 */

/** A bad flag: the message says which flag and what it accepts. */
export class BenchOptionError extends Error {
  readonly code = 'BENCH_OPTION_INVALID';
  constructor(message: string) {
    super(message);
    this.name = 'BenchOptionError';
  }
}

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
}

export interface LengthBenchOptions {
  readonly out: string | undefined;
  /** Increasing history lengths (tokens) to report the cost per call at. */
  readonly lengths: readonly number[];
}

function flag(bench: string, argv: readonly string[], name: string): string | undefined {
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
  const workers = flag('bench:proxy', argv, '--workers');
  const count = workers === undefined ? 1 : Number(workers);
  if (!Number.isInteger(count) || count < 1) {
    throw new BenchOptionError(
      `bench:proxy: --workers takes a whole number ≥ 1 (e.g. --workers 2); got "${workers ?? ''}"`,
    );
  }
  const window = flag('bench:proxy', argv, '--window');
  const budget = flag('bench:proxy', argv, '--working-budget');
  return {
    corpus: flag('bench:proxy', argv, '--corpus'),
    only: flag('bench:proxy', argv, '--only'),
    out: flag('bench:proxy', argv, '--out'),
    workers: count,
    window: window === undefined ? undefined : parseWindow(window),
    workingBudget: budget === undefined ? undefined : parseWorkingBudget(budget),
  };
}

/** The flags of `npm run bench:proxy:length`: `--lengths 100k,200k,…` and `--out <file>`. */
export function parseLengthBenchOptions(argv: readonly string[]): LengthBenchOptions {
  const text = flag('bench:proxy:length', argv, '--lengths');
  const lengths = text === undefined ? [...DEFAULT_LENGTHS] : text.split(',').map(parseTokens);
  const increasing = lengths.every(
    (length, i) => length !== undefined && (i === 0 || length > (lengths[i - 1] ?? 0)),
  );
  if (lengths.length === 0 || !increasing) {
    throw new BenchOptionError(
      `bench:proxy:length: --lengths takes increasing token counts separated by commas ` +
        `(e.g. --lengths 100k,200k,400k,800k); got "${text ?? ''}"`,
    );
  }
  return { out: flag('bench:proxy:length', argv, '--out'), lengths: lengths as number[] };
}
