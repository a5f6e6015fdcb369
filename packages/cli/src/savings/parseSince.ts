/**
 * `--since`: how far back `dense savings` looks, by a file's modification time. `30d`, `12h`,
 * `2w`, or `all` (no limit). Pure.
 */
import { DenseError } from '@dense/core';

export class SavingsUsageError extends DenseError {
  readonly code = 'SAVINGS_USAGE';
}

const UNIT_MS: Readonly<Record<string, number>> = {
  h: 3_600_000,
  d: 86_400_000,
  w: 7 * 86_400_000,
};

/** The window in milliseconds (`Infinity` for `all`); a `SavingsUsageError` for anything else. */
export function parseSince(value: unknown): number {
  if (value === 'all') return Infinity;
  const match = typeof value === 'string' ? /^(\d+)\s*([hdw])$/.exec(value.trim()) : null;
  const unit = match?.[2] === undefined ? undefined : UNIT_MS[match[2]];
  if (match === null || unit === undefined) {
    throw new SavingsUsageError(
      `--since expects a duration such as 30d, 12h or 2w, or 'all'; got '${String(value)}'.`,
    );
  }
  return Number(match[1]) * unit;
}
