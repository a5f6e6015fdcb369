/**
 * Where recordings live and how `--resume <id|latest>` finds one: `<sessionsDir>/<id>.jsonl`, ids
 * like `20261122-083015-3f9a1c` (start time, then random hex) so names sort by start time.
 */
import { randomBytes } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { errorMessage } from '@dense/core';
import { CliError } from '../cliErrors.js';

const EXTENSION = '.jsonl';

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

/** A new session id from the (local) start time and 6 random hex digits. */
export function newSessionId(
  now: Date,
  random: () => string = () => randomBytes(3).toString('hex'),
): string {
  const day = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}`;
  const time = `${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`;
  return `${day}-${time}-${random()}`;
}

export function sessionFileFor(sessionsDir: string, sessionId: string): string {
  return path.join(sessionsDir, `${sessionId}${EXTENSION}`);
}

export interface RecordedSession {
  readonly id: string;
  readonly file: string;
  readonly mtimeMs: number;
}

export async function listRecordings(sessionsDir: string): Promise<RecordedSession[]> {
  let names: string[];
  try {
    names = await readdir(sessionsDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw new CliError(
      'CLI_SESSION_NOT_FOUND',
      `Could not list recorded sessions in ${sessionsDir}: ${errorMessage(error)}`,
    );
  }
  const sessions: RecordedSession[] = [];
  for (const name of names.filter((n) => n.endsWith(EXTENSION))) {
    const file = path.join(sessionsDir, name);
    const info = await stat(file);
    sessions.push({ id: name.slice(0, -EXTENSION.length), file, mtimeMs: info.mtimeMs });
  }
  return sessions;
}

/**
 * The recording `ref` names: `latest` (the most recently written), an exact id, or a unique id
 * prefix. Throws CliError CLI_SESSION_NOT_FOUND (none, or an ambiguous prefix).
 */
export async function findSessionFile(
  sessionsDir: string,
  ref: string,
): Promise<{ readonly id: string; readonly file: string }> {
  const sessions = await listRecordings(sessionsDir);
  if (sessions.length === 0) {
    throw new CliError(
      'CLI_SESSION_NOT_FOUND',
      `No recorded sessions in ${sessionsDir} to resume.`,
    );
  }
  if (ref === 'latest') {
    const latest = sessions.reduce((a, b) =>
      b.mtimeMs > a.mtimeMs || (b.mtimeMs === a.mtimeMs && b.id > a.id) ? b : a,
    );
    return { id: latest.id, file: latest.file };
  }
  const exact = sessions.find((s) => s.id === ref);
  if (exact) return { id: exact.id, file: exact.file };
  const matches = sessions.filter((s) => s.id.startsWith(ref));
  if (matches.length === 1 && matches[0]) return { id: matches[0].id, file: matches[0].file };
  if (matches.length > 1) {
    const ids = matches
      .slice(0, 5)
      .map((s) => s.id)
      .join(', ');
    throw new CliError(
      'CLI_SESSION_NOT_FOUND',
      `Session '${ref}' is ambiguous: it starts ${matches.length} session ids (${ids}). Give more of the id.`,
    );
  }
  throw new CliError(
    'CLI_SESSION_NOT_FOUND',
    `No recorded session '${ref}' in ${sessionsDir}. Use 'latest' or one of the ids there.`,
  );
}
