/**
 * The names of the files `dense replay --sent DIR` writes: one per session, policy and window,
 * `<session>.<policy>[.<window>].jsonl`, so that a reader finds a run's file without an index.
 * Pure.
 */
import path from 'node:path';

/** Which run a sent log belongs to. */
export interface SentLogKey {
  /** The transcript's path. */
  readonly file: string;
  /** The session's index within its file (0 for the first or only one). */
  readonly sessionIndex: number;
  /** The policy's id. */
  readonly policy: string;
  /** The context window in tokens; `null` for a policy that lifts it (`none`, `recorded`). */
  readonly window: number | null;
}

/** A transcript's part of the names by default: its file name without the last extension. */
export function sentTranscriptName(file: string): string {
  return path.parse(file).name;
}

/** A session's part of the name: its transcript's, and `#<index>` for a file's later sessions. */
export function sentSessionStem(transcriptName: string, sessionIndex: number): string {
  return sessionIndex > 0 ? `${transcriptName}#${sessionIndex}` : transcriptName;
}

/** `128000` → `128k`, `1000000` → `1m`; a count that is neither stays as it is. */
export function sentWindowLabel(tokens: number): string {
  if (tokens % 1_000_000 === 0) return `${tokens / 1_000_000}m`;
  if (tokens % 1_000 === 0) return `${tokens / 1_000}k`;
  return String(tokens);
}

/** `<stem>.<policy>[.<window>].jsonl`: the window left out for a policy that lifts it. */
export function sentLogFileName(stem: string, key: Pick<SentLogKey, 'policy' | 'window'>): string {
  const window = key.window === null ? '' : `.${sentWindowLabel(key.window)}`;
  return `${stem}.${key.policy}${window}.jsonl`;
}
