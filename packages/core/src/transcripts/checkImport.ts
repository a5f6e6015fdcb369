/**
 * Whether an import looks complete: a session with no model reply, or with far fewer calls than
 * its file holds (`ImportedSession.recorded`, for importers that count it), was most likely read
 * wrongly, and a replay of it would report savings on a conversation that is not there. Pure.
 */
import type { ImportedSession, RecordedCalls } from './types.js';

/** Below this share of the calls the file holds, an import is reported as incomplete. */
export const MIN_IMPORTED_SHARE = 0.5;

export const IMPORT_PROBLEMS = ['no-model-calls', 'calls-missing'] as const;
export type ImportProblem = (typeof IMPORT_PROBLEMS)[number];

export type ImportCheck =
  | { readonly kind: 'ok' }
  | {
      readonly kind: ImportProblem;
      readonly imported: RecordedCalls;
      /** What the file holds, when its importer counts it. */
      readonly recorded?: RecordedCalls;
    };

function short(imported: number, recorded: number): boolean {
  return recorded > 0 && imported < recorded * MIN_IMPORTED_SHARE;
}

/** Checks one imported session against what its file holds. */
export function checkImport(session: Pick<ImportedSession, 'stats' | 'recorded'>): ImportCheck {
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
    default: {
      const never: never = check;
      return never;
    }
  }
}
