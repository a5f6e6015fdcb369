/**
 * Which imported sessions the corpus benches (`bench:replay`, `bench:proxy`) replay, shared so the
 * two cannot disagree: every session but the client's own compaction calls (Claude Code's
 * `subagents/agent-acompact-*.jsonl`: the conversation it summarized, sent once more, and part of
 * its parent session, not a session of its own), and an error when nothing is left to report on.
 */
import { DenseError } from '@dense/core';

/** What the benches read of a session's role (`ImportedSession.role`; absent: a session). */
export interface RoledSession {
  readonly role?: string;
}

/** The importer's role for a file holding the client's own compaction call. */
export const COMPACTION_CALL_ROLE = 'compaction-call';

export function isCompactionCall(session: RoledSession): boolean {
  return session.role === COMPACTION_CALL_ROLE;
}

/** `sessions` without the compaction calls, and how many those were. */
export function benchSessions<T extends RoledSession>(
  sessions: readonly T[],
): { readonly sessions: T[]; readonly compactionCalls: number } {
  const kept = sessions.filter((session) => !isCompactionCall(session));
  return { sessions: kept, compactionCalls: sessions.length - kept.length };
}

/** A corpus bench found no session to replay: any figure it printed would describe nothing. */
export class NoSessionsError extends DenseError {
  readonly code = 'BENCH_NO_SESSIONS';
}

/** What a run found, for the message when it found no session. */
export interface CorpusCount {
  readonly bench: string;
  readonly corpus: string;
  /** Files selected (after `--only`). */
  readonly files: number;
  /** Files that failed to import. */
  readonly failed: number;
  /** Compaction-call sessions left out. */
  readonly compactionCalls: number;
  readonly only?: string;
}

/** The line a bench prints about the compaction calls it left out ('' when none). */
export function compactionCallsNote(bench: string, compactionCalls: number): string {
  return compactionCalls === 0
    ? ''
    : `${bench}: skipped ${compactionCalls} client compaction call(s) ` +
        '(agent-acompact files: part of their parent session, not sessions).';
}

/** Throws `NoSessionsError` when `sessions` is 0, saying what was found instead. */
export function requireSessions(sessions: number, found: CorpusCount): void {
  if (sessions > 0) return;
  const only = found.only === undefined ? '' : ` matching --only "${found.only}"`;
  throw new NoSessionsError(
    `${found.bench}: no session imported from ${found.corpus}: ${found.files} file(s)${only}, ` +
      `${found.failed} failed to import, ${found.compactionCalls} compaction call(s) skipped. ` +
      'Nothing to report; check --corpus and --only.',
  );
}
