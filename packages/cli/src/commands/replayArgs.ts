/**
 * The options of `dense replay` from its arguments: the target, the policy (`--strategy`), the
 * context limit, `--set key=value` settings (never the keys a flag owns), `--json`, `--report`
 * and `--sent`; and which errors are the user's input (exit 2) rather than a failure.
 */
import {
  getReplayPolicy,
  parseSettingValue,
  ReplayError,
  SettingError,
  TranscriptError,
  type EphemeralSettings,
  type ReplayPolicy,
} from '@dense/core';
import { isSentLogError, sentOption } from './replaySent.js';

export const DEFAULT_REPLAY_CONTEXT_LIMIT = 128_000;

export interface ReplayCliOptions {
  readonly target: string;
  readonly policy: ReplayPolicy;
  readonly contextLimit: number;
  readonly settings: EphemeralSettings;
  readonly json: boolean;
  /** `--report FILE`: also write the HTML comparison page there. */
  readonly report?: string;
  /** `--sent DIR`: also write what each policy sent to each model call there. */
  readonly sent?: string;
}

export class ReplayUsageError extends Error {}

/**
 * Bad flags, a missing path, a file that is no transcript or a `--sent` directory that cannot be
 * written: usage (exit 2), not a failure.
 */
export function isBadInput(error: Error): boolean {
  return (
    error instanceof ReplayUsageError ||
    error instanceof ReplayError ||
    error instanceof TranscriptError ||
    error instanceof SettingError ||
    isSentLogError(error)
  );
}

/** Keys the flags own: `--set` may not change them behind the flags' back. */
const FLAG_KEYS: Readonly<Record<string, string>> = {
  'compression.strategy': '--strategy',
  'context-limit': '--context-limit',
};

function parseSets(value: unknown): EphemeralSettings {
  const raws: unknown[] = value === undefined ? [] : Array.isArray(value) ? value : [value];
  const settings: Record<string, unknown> = {};
  for (const raw of raws) {
    const text = String(raw);
    const equals = text.indexOf('=');
    if (equals <= 0) throw new ReplayUsageError(`--set expects key=value, got '${text}'.`);
    const key = text.slice(0, equals).trim();
    const flag = FLAG_KEYS[key];
    if (flag !== undefined) throw new ReplayUsageError(`use ${flag} instead of --set ${key}.`);
    const parsed = parseSettingValue(key, text.slice(equals + 1));
    if (!parsed.ok) throw new ReplayUsageError(`--set ${text}: ${parsed.error.message}`);
    settings[parsed.key] = parsed.value;
  }
  return settings;
}

/** The command's options from yargs' arguments; throws a usage error with a one-line message. */
export function parseReplayArgs(args: Readonly<Record<string, unknown>>): ReplayCliOptions {
  const target = args.path;
  if (typeof target !== 'string' || target === '') {
    throw new ReplayUsageError('give a transcript file or a directory of them.');
  }
  const limit = args['context-limit'] ?? DEFAULT_REPLAY_CONTEXT_LIMIT;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1) {
    throw new ReplayUsageError(
      `--context-limit must be a positive integer, got '${JSON.stringify(limit)}'.`,
    );
  }
  let policy: ReplayPolicy;
  try {
    const strategy = args.strategy ?? 'high-density';
    if (typeof strategy !== 'string') throw new Error('give --strategy once.');
    policy = getReplayPolicy(strategy);
  } catch (error) {
    throw new ReplayUsageError(error instanceof Error ? error.message : String(error));
  }
  return {
    target,
    policy,
    contextLimit: limit,
    settings: parseSets(args.set),
    json: args.json === true,
    ...(typeof args.report === 'string' && args.report !== '' ? { report: args.report } : {}),
    ...sentOption(args.sent),
  };
}
