/**
 * What one `dense recall` call asks for, checked: the id, `--json` and the view flags. Both
 * command-line parsers (the fast entry's and yargs') build it from their raw options here.
 */
import type { RecallView } from './recallView.js';

export interface RecallRequest {
  readonly id: string;
  /** Print the stored form (no transcript rendering). */
  readonly json: boolean;
  /** Undefined: the whole text (as stored, or the transcript newline-terminated). */
  readonly view: RecallView | undefined;
  /** Where an image original's bytes go (`--out FILE`). */
  readonly out?: string;
}

/** The options as given on the command line, before checking. */
export interface RawRecallOptions {
  readonly id: string;
  readonly json?: boolean;
  readonly lines?: string;
  readonly grep?: string;
  readonly head?: string;
  readonly context?: string;
  readonly out?: string;
}

export const DEFAULT_GREP_CONTEXT = 2;

export type RequestOutcome =
  | { readonly kind: 'request'; readonly request: RecallRequest }
  | { readonly kind: 'error'; readonly message: string };

function count(flag: string, value: string | undefined): number | string | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) return `${flag} takes a whole number, not '${value}'`;
  return Number(value);
}

function lineRange(value: string | undefined): RecallView['lines'] | string {
  if (value === undefined) return undefined;
  const match = /^(\d*)(?::(\d*))?$/.exec(value);
  const from = match?.[1] === '' ? 1 : Number(match?.[1]);
  const to = match?.[2] === undefined ? from : match[2] === '' ? undefined : Number(match[2]);
  if (match === null || value === ':' || from < 1 || (to !== undefined && to < from)) {
    return `--lines takes A:B (1-based, inclusive, A <= B; A: or :B open-ended), not '${value}'`;
  }
  return to === undefined ? { from } : { from, to };
}

function pattern(value: string | undefined): RegExp | string | undefined {
  if (value === undefined) return undefined;
  try {
    return new RegExp(value, 'i');
  } catch (error) {
    return `--grep: ${error instanceof Error ? error.message : String(error)}`;
  }
}

/** The checked request, or one line saying which option is wrong. */
export function recallRequestOf(raw: RawRecallOptions): RequestOutcome {
  const lines = lineRange(raw.lines);
  const grep = pattern(raw.grep);
  const head = count('--head', raw.head);
  const context = count('--context', raw.context);
  for (const checked of [lines, grep, head, context]) {
    if (typeof checked === 'string') return { kind: 'error', message: checked };
  }
  const json = raw.json === true;
  const out = raw.out === undefined ? {} : { out: raw.out };
  if (raw.out === '') return { kind: 'error', message: '--out needs FILE' };
  const hasView = [raw.lines, raw.grep, raw.head].some((value) => value !== undefined);
  if (!hasView) return { kind: 'request', request: { id: raw.id, json, view: undefined, ...out } };
  const view: RecallView = {
    context: typeof context === 'number' ? context : DEFAULT_GREP_CONTEXT,
    ...(typeof lines === 'object' ? { lines } : {}),
    ...(grep instanceof RegExp ? { grep } : {}),
    ...(typeof head === 'number' ? { head } : {}),
  };
  return { kind: 'request', request: { id: raw.id, json, view, ...out } };
}
