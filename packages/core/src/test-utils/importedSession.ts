/** An `ImportedSession` around builder-made contents, for replay tests. */
import type { IContent } from '../services/history/IContent.js';
import { computeSessionStats } from '../transcripts/sessionStats.js';
import type { ImportedSession, TranscriptFormat } from '../transcripts/types.js';

export function importedSession(
  contents: readonly IContent[],
  options: { readonly format?: TranscriptFormat; readonly workspaceRoot?: string } = {},
): ImportedSession {
  return {
    file: 'fixture.jsonl',
    format: options.format ?? 'dense-session',
    sessionIndex: 0,
    workspaceRoot: options.workspaceRoot ?? '/w',
    contents,
    skipped: [],
    ignored: {},
    stats: computeSessionStats(contents),
  };
}
