/**
 * Tiny readers for untrusted JSON: a value as a string, a number or an object, with no throw and
 * no coercion. Importers use them so every recorded field is checked before it is trusted.
 */
import { isParams } from './toolAliases.js';

export type Json = Readonly<Record<string, unknown>>;

/** The value if it is a string, else undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The value if it is a finite number, else undefined. */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The value if it is a plain object, else an empty one. */
export function obj(value: unknown): Json {
  return isParams(value) ? value : {};
}

/** The value if it is an array, else an empty one. */
export function list(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/** The `text` of each part that has one, joined (a string content is returned as is). */
export function joinedText(content: unknown, separator = ''): string {
  if (typeof content === 'string') return content;
  return list(content)
    .map((part) => str(obj(part).text) ?? '')
    .join(separator);
}

/** Parses a JSON object written as a string; undefined when it is not one. */
export function parseObject(text: unknown): Json | undefined {
  if (isParams(text)) return text;
  if (typeof text !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isParams(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A recorded ISO-8601 time as ms since the epoch, else undefined. A time without a zone (OpenHands
 * writes `2025-01-27T22:44:56.900854`) is read as UTC, so gaps never depend on the host's zone.
 */
export function recordedTime(value: unknown): number | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const text = value.trim();
  const zoned = /(?:Z|[+-]\d\d:?\d\d)$/i.test(text) || !/T\d/.test(text) ? text : `${text}Z`;
  const ms = Date.parse(zoned);
  return Number.isFinite(ms) ? ms : undefined;
}
