/**
 * The one parser and validator of setting values, used by `/set`, `--set`, profiles and code.
 * Bad input yields a `SettingError` whose message says what was wrong and what would be right.
 */
import { DenseError } from '../utils/errors.js';
import { closestMatches } from '../utils/closestMatches.js';
import { describeRange, isInRange, type SettingSpec } from './settingSpec.js';
import {
  getSettingSpec,
  isSettingKey,
  SETTING_KEYS,
  type SettingKey,
  type SettingValue,
} from './settingsRegistry.js';

export type SettingErrorCode =
  'SETTING_UNKNOWN_KEY' | 'SETTING_WRONG_TYPE' | 'SETTING_OUT_OF_RANGE' | 'SETTING_NOT_IN_ENUM';

export class SettingError extends DenseError {
  constructor(
    readonly code: SettingErrorCode,
    readonly key: string,
    message: string,
  ) {
    super(message);
  }
}

export type AnySettingValue = SettingValue<SettingKey>;

export type SettingParseResult =
  | { readonly ok: true; readonly key: SettingKey; readonly value: AnySettingValue }
  | { readonly ok: false; readonly error: SettingError };

const TRUE_WORDS = new Set(['true', 'on', 'yes', '1']);
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const FALSE_WORDS = new Set(['false', 'off', 'no', '0']);

/** The key itself, or a `SettingError` naming the closest valid keys. */
export function resolveSettingKey(key: string): SettingKey | SettingError {
  if (isSettingKey(key)) return key;
  const suggestions = closestMatches(key, SETTING_KEYS);
  const hint =
    suggestions.length > 0
      ? ` Did you mean ${suggestions.map((s) => `'${s}'`).join(', ')}?`
      : ' Run /set to list every setting.';
  return new SettingError('SETTING_UNKNOWN_KEY', key, `Unknown setting '${key}'.${hint}`);
}

function fail(code: SettingErrorCode, key: string, message: string): SettingParseResult {
  return { ok: false, error: new SettingError(code, key, message) };
}

function checkValue(spec: SettingSpec<SettingKey>, value: unknown): SettingParseResult {
  const { key } = spec;
  switch (spec.type) {
    case 'boolean':
      return typeof value === 'boolean'
        ? { ok: true, key, value }
        : fail('SETTING_WRONG_TYPE', key, `'${key}' must be true or false.`);
    case 'string':
      return typeof value === 'string' && value.trim() !== ''
        ? { ok: true, key, value }
        : fail('SETTING_WRONG_TYPE', key, `'${key}' must be a non-empty string.`);
    case 'number': {
      const expected = describeRange(spec.range);
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        return fail('SETTING_WRONG_TYPE', key, `'${key}' must be ${expected}.`);
      }
      return isInRange(value, spec.range)
        ? { ok: true, key, value }
        : fail('SETTING_OUT_OF_RANGE', key, `'${key}' must be ${expected}; got ${value}.`);
    }
    case 'enum':
      return typeof value === 'string' && spec.enumValues.includes(value)
        ? { ok: true, key, value: value as AnySettingValue }
        : fail(
            'SETTING_NOT_IN_ENUM',
            key,
            `'${key}' must be one of ${spec.enumValues.join(', ')}; got ${JSON.stringify(value)}.`,
          );
  }
}

function coerceRaw(spec: SettingSpec<SettingKey>, raw: string): unknown {
  const text = raw.trim();
  switch (spec.type) {
    case 'boolean': {
      const word = text.toLowerCase();
      if (TRUE_WORDS.has(word)) return true;
      if (FALSE_WORDS.has(word)) return false;
      return text;
    }
    case 'number': {
      const word = spec.words?.[text.toLowerCase()];
      if (word !== undefined) return word;
      // Plain decimal notation only: Number() would also take '0x3', '0b11' or '' as numbers.
      return DECIMAL.test(text) ? Number(text) : text;
    }
    case 'string':
    case 'enum':
      return text;
  }
}

/** Parses a value typed by a person (`/set key value`, `--set key=value`). */
export function parseSettingValue(key: string, raw: string): SettingParseResult {
  const resolved = resolveSettingKey(key);
  if (resolved instanceof SettingError) return { ok: false, error: resolved };
  const spec = getSettingSpec(resolved);
  const result = checkValue(spec, coerceRaw(spec, raw));
  // A word (e.g. `auto`) stands for its value whatever `typedMin` says of typed numbers.
  const typedMin =
    spec.type === 'number' && spec.words?.[raw.trim().toLowerCase()] === undefined
      ? spec.range?.typedMin
      : undefined;
  if (result.ok && typedMin !== undefined && (result.value as number) < typedMin) {
    return fail(
      'SETTING_OUT_OF_RANGE',
      resolved,
      `'${resolved}' must be at least ${typedMin}; got ${raw.trim()}.`,
    );
  }
  if (!result.ok && spec.type === 'number' && !DECIMAL.test(raw.trim())) {
    const words = Object.keys(spec.words ?? {}).map((word) => ` or '${word}'`);
    return fail(
      'SETTING_WRONG_TYPE',
      resolved,
      `'${resolved}' must be ${describeRange(spec.range)}${words.join('')}; got '${raw}'.`,
    );
  }
  return result;
}

/** Validates an already-typed value (from a profile's JSON or from code). */
export function validateSettingValue(key: string, value: unknown): SettingParseResult {
  const resolved = resolveSettingKey(key);
  if (resolved instanceof SettingError) return { ok: false, error: resolved };
  return checkValue(getSettingSpec(resolved), value);
}

/** A value as a person would type it back. */
export function formatSettingValue(value: unknown): string {
  return value === undefined
    ? '(unset)'
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);
}
