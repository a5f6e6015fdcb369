/**
 * The shapes every transcript importer shares: which format a file is in, what an import yields
 * (the history in our canonical model plus what was skipped and why), and the import options.
 */
import type { IContent } from '../services/history/IContent.js';

export const TRANSCRIPT_FORMATS = [
  'dense-session',
  'gemini-cli-recording',
  'gemini-cli-content',
  'gemini-cli-markdown',
  'claude-code',
  'codex',
  'openhands-events',
  'openhands-output',
  'swe-agent',
  'mini-swe-agent',
] as const;

/**
 * - `dense-session`: our own session JSONL (see sessionFormat.ts).
 * - `gemini-cli-recording`: gemini-cli's automatic chat recording (`~/.gemini/tmp/<hash>/chats/*.json`).
 * - `gemini-cli-content`: gemini-cli `/chat share file.json` (the raw `Content[]` history).
 * - `gemini-cli-markdown`: gemini-cli `/chat share file.md`.
 * - `claude-code`: a Claude Code session JSONL (`~/.claude/projects/…`, subagent files included), or
 *   the same records as one JSON array (the `logs/chat.json` a Stop hook writes).
 * - `codex`: a Codex CLI rollout JSONL (`~/.codex/sessions/…/rollout-*.jsonl`).
 * - `openhands-events`: an OpenHands event stream saved as one JSON array.
 * - `openhands-output`: an OpenHands evaluation/resolver `output.jsonl`, one session per line.
 * - `swe-agent`: a SWE-agent `.traj` (0.x windowed editor and 1.x, function calling or not).
 * - `mini-swe-agent`: a mini-swe-agent `traj.json` (1.x bash blocks, or 2.x native tool calls).
 */
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** Where a skipped record was: a 1-based line (JSONL, markdown) or a JSON path (`$.history[3]`). */
export type RecordLocation =
  | { readonly line: number; readonly path?: undefined }
  | { readonly path: string; readonly line?: undefined };

/** A record that was malformed or unusable and left out of `contents`. */
export type SkippedRecord = RecordLocation & {
  readonly reason: string;
  /** `orphan-result`: a tool result no call of the session answers (`checkImport` reports it). */
  readonly kind?: 'orphan-result';
};

/** Counts that describe an imported session (computed from `contents`, see sessionStats.ts). */
export interface SessionStats {
  readonly entries: number;
  readonly humanEntries: number;
  readonly aiEntries: number;
  readonly toolEntries: number;
  readonly toolCalls: number;
  readonly toolResponses: number;
  readonly failedToolResponses: number;
  /** Calls to dedicated read tools (`READ_TOOLS`). */
  readonly reads: number;
  /** Calls to dedicated write tools (`WRITE_TOOLS` and `delete_file`). */
  readonly writes: number;
  /** Of `writes`, those whose response carries an error. */
  readonly failedWrites: number;
  /** `run_shell_command` calls that `classifyShellCommand` sees reading a file. */
  readonly shellReads: number;
  /** `run_shell_command` calls that `classifyShellCommand` sees writing a file. */
  readonly shellWrites: number;
  /** File inclusions (`formatFileInclusion` marker pairs) in human text. */
  readonly inclusions: number;
  /** Calls no response answers (e.g. the session was interrupted). */
  readonly unansweredCalls: number;
}

/** Calls a transcript file holds, counted from its raw records. */
export interface RecordedCalls {
  readonly modelCalls: number;
  readonly toolCalls: number;
}

/**
 * What a session file is to its client: a `session` the user ran, a `subagent` the agent
 * started (its own model calls, billed too), or a `compaction-call` — the client's own
 * summarization request written out as a file (Claude Code's `subagents/agent-acompact-*.jsonl`:
 * the parent's conversation sent once more to be summarized). The parent already records that
 * compaction's summary as its boundary, so a replay never runs a compaction call as a session.
 */
export type SessionRole = 'session' | 'subagent' | 'compaction-call';

/** One recorded session in our canonical model. */
export interface ImportedSession {
  /** The file it came from, as given to the importer. */
  readonly file: string;
  readonly format: TranscriptFormat;
  /** 0 for single-session files; the session's position in multi-session files. */
  readonly sessionIndex: number;
  /** What the file is to its client; absent means `session`. */
  readonly role?: SessionRole;
  readonly sessionId?: string;
  /** The recorded working directory, when the format records it (relative paths resolve against it). */
  readonly workspaceRoot?: string;
  readonly model?: string;
  /** The model's context window as the transcript records it (tokens). */
  readonly recordedContextWindow?: number;
  readonly contents: readonly IContent[];
  /** Malformed or unusable records, with where they were and why they were skipped. */
  readonly skipped: readonly SkippedRecord[];
  /** Records that are not conversation (progress lines, snapshots, system prompts…), counted by reason. */
  readonly ignored: Readonly<Record<string, number>>;
  /**
   * What the file holds, counted from its raw records before mapping, for importers that count it:
   * model replies and tool calls. `checkImport` compares it with `stats`.
   */
  readonly recorded?: RecordedCalls;
  readonly stats: SessionStats;
}

export interface ImportOptions {
  /** Skip detection and read the file as this format. */
  readonly format?: TranscriptFormat;
  /**
   * Keep recorded reasoning as `thinking` blocks (Claude Code thinking, gemini-cli thought
   * summaries, Codex reasoning summaries). The default follows what the agent sends back: Claude
   * Code returns its thinking blocks to the model (signed, and counted in the prompt tokens it
   * records), so its importer keeps them; gemini-cli and Codex do not send earlier reasoning back as
   * readable input, so theirs drop it.
   */
  readonly includeThinking?: boolean;
}
