/**
 * `dense replay --sent DIR`: the flag's value, which name each transcript's sent logs get, and how
 * the command tells the sent log's error (core's `SentLogError`) from the others.
 */
import path from 'node:path';
import { DenseError, ReplayError } from '@dense/core';

/** Where `replaySession` writes a file's sent logs (core's `SentLogTarget`). */
export interface SentTarget {
  readonly dir: string;
  readonly name: string;
}

/** Core's `SentLogError`: the `--sent` directory or a file in it cannot be written. */
export function isSentLogError(error: unknown): boolean {
  return error instanceof DenseError && error.code === 'REPLAY_SENT_UNWRITABLE';
}

/** `--sent`'s value: one directory, or none. */
export function sentOption(value: unknown): { sent?: string } {
  if (value === undefined) return {};
  if (typeof value !== 'string' || value === '') {
    throw new ReplayError('REPLAY_BAD_OPTION', '--sent expects one directory.');
  }
  return { sent: value };
}

/**
 * Each file's name in the `--sent` file names: its own without the extension (as core names it),
 * `~2`, `~3`… for a later file of the same name (in another folder of the directory).
 */
export function sentNames(files: readonly string[]): ReadonlyMap<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const file of files) {
    const base = path.parse(file).name;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}~${n}`;
    taken.add(name);
    names.set(file, name);
  }
  return names;
}

/** Per file of the run, where its sent logs go; always `undefined` without `--sent`. */
export function sentTargets(
  dir: string | undefined,
  files: readonly string[],
): (file: string) => SentTarget | undefined {
  if (dir === undefined) return () => undefined;
  const names = sentNames(files);
  return (file) => ({ dir, name: names.get(file) ?? path.parse(file).name });
}
