/**
 * Where each agent client keeps its own transcripts on this machine, and which files there are
 * sessions: Claude Code's projects folder, Codex's sessions folder, gemini-cli's chats. Pure: the
 * environment and home directory are passed in.
 */
import path from 'node:path';

export const SAVINGS_SOURCES = ['claude-code', 'codex', 'gemini-cli', 'other'] as const;
export type SavingsSource = (typeof SAVINGS_SOURCES)[number];

/** How outputs name a source. */
export const SOURCE_LABELS: Readonly<Record<SavingsSource, string>> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  'gemini-cli': 'gemini-cli',
  other: 'other',
};

/** One client's transcript folder and the files in it that are sessions. */
export interface SourceLocation {
  readonly source: Exclude<SavingsSource, 'other'>;
  /** The folder walked. */
  readonly root: string;
  /** The pattern, for a person (`**\/*.jsonl`). */
  readonly pattern: string;
  /** Whether a file below `root` (path relative to it, `/`-separated) is a session file. */
  readonly matches: (relative: string) => boolean;
  /** Set when the folder comes from an environment variable, e.g. `CLAUDE_CONFIG_DIR`. */
  readonly fromEnv?: string;
}

/**
 * Claude Code's own compaction call (`subagents/agent-acompact-*.jsonl`): the parent's conversation
 * sent once more to be summarized, part of the parent session's boundary, not a session.
 */
export function isCompactionCallFile(relative: string): boolean {
  return /(^|\/)agent-acompact-[^/]*\.jsonl$/.test(relative);
}

const nonEmpty = (value: string | undefined): string | undefined =>
  value === undefined || value.trim() === '' ? undefined : value;

/**
 * The three clients' folders: `$CLAUDE_CONFIG_DIR/projects` (default `~/.claude/projects`, every
 * `.jsonl` below it, subagents included), `$CODEX_HOME/sessions` (default `~/.codex/sessions`,
 * `rollout-*.jsonl` at any depth) and `~/.gemini/tmp/<project>/chats/*.json`.
 */
export function sourceLocations(env: NodeJS.ProcessEnv, home: string): SourceLocation[] {
  const claudeEnv = nonEmpty(env.CLAUDE_CONFIG_DIR);
  const codexEnv = nonEmpty(env.CODEX_HOME);
  return [
    {
      source: 'claude-code',
      root: path.join(claudeEnv ?? path.join(home, '.claude'), 'projects'),
      pattern: '**/*.jsonl',
      matches: (relative) => relative.endsWith('.jsonl'),
      ...(claudeEnv === undefined ? {} : { fromEnv: 'CLAUDE_CONFIG_DIR' }),
    },
    {
      source: 'codex',
      root: path.join(codexEnv ?? path.join(home, '.codex'), 'sessions'),
      pattern: '**/rollout-*.jsonl',
      matches: (relative) => /(^|\/)rollout-[^/]*\.jsonl$/.test(relative),
      ...(codexEnv === undefined ? {} : { fromEnv: 'CODEX_HOME' }),
    },
    {
      source: 'gemini-cli',
      root: path.join(home, '.gemini', 'tmp'),
      pattern: '*/chats/*.json',
      matches: (relative) => /^[^/]+\/chats\/[^/]+\.json$/.test(relative),
    },
  ];
}

/** The source a transcript format belongs to (what `--path` files are counted under). */
export function sourceOfFormat(format: string): SavingsSource {
  if (format === 'claude-code') return 'claude-code';
  if (format === 'codex') return 'codex';
  if (format.startsWith('gemini-cli')) return 'gemini-cli';
  return 'other';
}
