/**
 * Whether an import looks complete and faithful: a session with no model reply, with far fewer
 * calls than its file holds (`ImportedSession.recorded`, for importers that count it), with a
 * sizeable share of records of a type the importer does not know, with tool results no call
 * answers, or with one recorded reply imported twice (history a resumed session copied) was most
 * likely read wrongly, and a replay of it would report savings on a conversation that is not
 * there. Each is said loudly, never dropped silently. Pure.
 */
import { UNKNOWN_RECORD_PREFIX } from './SessionBuilder.js';
import type { ImportedSession, RecordedCalls } from './types.js';

/** Below this share of the calls the file holds, an import is reported as incomplete. */
export const MIN_IMPORTED_SHARE = 0.5;
/** Above this share of a file's records of unknown type, an import is reported as unread. */
export const MAX_UNKNOWN_SHARE = 0.05;

export const IMPORT_PROBLEMS = [
  'no-model-calls',
  'calls-missing',
  'unknown-records',
  'results-without-calls',
  'duplicate-history',
] as const;
export type ImportProblem = (typeof IMPORT_PROBLEMS)[number];

export type ImportCheck =
  | { readonly kind: 'ok' }
  | {
      readonly kind: 'no-model-calls' | 'calls-missing';
      readonly imported: RecordedCalls;
      /** What the file holds, when its importer counts it. */
      readonly recorded?: RecordedCalls;
    }
  | {
      readonly kind: 'unknown-records' | 'results-without-calls' | 'duplicate-history';
      /** How many records (or replies) the problem touches. */
      readonly count: number;
      /** Of how many records in all (unknown records only). */
      readonly of?: number;
    };

export type CheckedSession = Pick<ImportedSession, 'stats' | 'recorded'> &
  Partial<Pick<ImportedSession, 'skipped' | 'ignored' | 'contents'>>;

function short(imported: number, recorded: number): boolean {
  return recorded > 0 && imported < recorded * MIN_IMPORTED_SHARE;
}

function callsCheck(session: CheckedSession): ImportCheck {
  const imported: RecordedCalls = {
    modelCalls: session.stats.aiEntries,
    toolCalls: session.stats.toolCalls,
  };
  const { recorded } = session;
  const withRecorded = recorded === undefined ? {} : { recorded };
  if (imported.modelCalls === 0) return { kind: 'no-model-calls', imported, ...withRecorded };
  if (
    recorded !== undefined &&
    (short(imported.modelCalls, recorded.modelCalls) ||
      short(imported.toolCalls, recorded.toolCalls))
  ) {
    return { kind: 'calls-missing', imported, recorded };
  }
  return { kind: 'ok' };
}

function unknownRecords(session: CheckedSession): ImportCheck {
  const ignored = Object.entries(session.ignored ?? {});
  const unknown = ignored
    .filter(([reason]) => reason.startsWith(UNKNOWN_RECORD_PREFIX))
    .reduce((sum, [, n]) => sum + n, 0);
  const all =
    ignored.reduce((sum, [, n]) => sum + n, 0) +
    session.stats.entries +
    (session.skipped?.length ?? 0);
  return unknown > 0 && unknown > all * MAX_UNKNOWN_SHARE
    ? { kind: 'unknown-records', count: unknown, of: all }
    : { kind: 'ok' };
}

function orphanResults(session: CheckedSession): ImportCheck {
  const count = (session.skipped ?? []).filter((s) => s.kind === 'orphan-result').length;
  return count > 0 ? { kind: 'results-without-calls', count } : { kind: 'ok' };
}

/** Replies imported more than once: AI entries that carry the same provider reply id. */
function duplicateReplies(session: CheckedSession): ImportCheck {
  const seen = new Set<string>();
  let count = 0;
  for (const entry of session.contents ?? []) {
    const id = entry.speaker === 'ai' ? entry.metadata?.id : undefined;
    if (typeof id !== 'string') continue;
    if (seen.has(id)) count += 1;
    seen.add(id);
  }
  return count > 0 ? { kind: 'duplicate-history', count } : { kind: 'ok' };
}

/** Checks one imported session against what its file holds; the first problem found. */
export function checkImport(session: CheckedSession): ImportCheck {
  for (const check of [callsCheck, unknownRecords, orphanResults, duplicateReplies]) {
    const found = check(session);
    if (found.kind !== 'ok') return found;
  }
  return { kind: 'ok' };
}

/** The problem in one sentence, for warnings and reports; undefined when the import is ok. */
export function describeImportCheck(check: ImportCheck): string | undefined {
  switch (check.kind) {
    case 'ok':
      return undefined;
    case 'no-model-calls':
    case 'calls-missing': {
      const { imported, recorded } = check;
      const of = (key: keyof RecordedCalls): string =>
        recorded === undefined ? `${imported[key]}` : `${imported[key]} of ${recorded[key]}`;
      const counts = `${of('modelCalls')} model calls and ${of('toolCalls')} tool calls`;
      return check.kind === 'no-model-calls'
        ? `imported no model call (${counts}); the file was most likely not read as what it is`
        : `imported only ${counts} the file holds; the rest was not read`;
    }
    case 'unknown-records':
      return `${check.count} of ${check.of ?? '?'} records are of a type the importer does not know; the file was most likely written by a newer client version`;
    case 'results-without-calls':
      return `${check.count} tool result(s) answer no call in the file and were left out`;
    case 'duplicate-history':
      return `${check.count} model repl(ies) imported more than once (copied history); its calls would count twice`;
    default: {
      const never: never = check;
      return never;
    }
  }
}
