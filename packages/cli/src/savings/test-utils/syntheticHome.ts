/**
 * A temp folder laid out like a user's home with Claude Code, Codex and gemini-cli transcripts
 * in their own places, from `syntheticSessions.ts`; file times set as the tests ask.
 */
import { mkdir, mkdtemp, utimes, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { claudeCodeSession, codexRollout, geminiChat, T0 } from './syntheticSessions.js';

export interface SyntheticHome {
  readonly home: string;
  /** The files written, by a short name. */
  readonly files: Readonly<Record<string, string>>;
}

/** Writes `text` at `file` (folders made), modified `ageDays` ago. */
export async function writeAged(file: string, text: string, ageDays = 1): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
  const time = new Date(Date.now() - ageDays * 86_400_000);
  await utimes(file, time, time);
}

/**
 * A home with: two Claude Code sessions (a long one that compacted itself once, a short one) and
 * a compaction-call file beside them; a Codex rollout that compacted itself once; a gemini-cli chat.
 */
export async function syntheticHome(prefix = 'dense-savings-home-'): Promise<SyntheticHome> {
  const home = await mkdtemp(path.join(os.tmpdir(), prefix));
  const project = path.join(home, '.claude', 'projects', '-home-cook-kitchen-timer');
  const files = {
    long: path.join(project, 'a1b2c3d4-long.jsonl'),
    short: path.join(project, 'e5f6a7b8-short.jsonl'),
    compactionCall: path.join(project, 'a1b2c3d4-long', 'subagents', 'agent-acompact-01.jsonl'),
    codex: path.join(
      home,
      '.codex',
      'sessions',
      '2026',
      '11',
      '20',
      'rollout-2026-11-20T09-00-00-c0dex.jsonl',
    ),
    gemini: path.join(
      home,
      '.gemini',
      'tmp',
      'f00d',
      'chats',
      'session-2026-11-20T09-00-snooze.json',
    ),
  };
  await writeAged(
    files.long,
    claudeCodeSession({
      id: 'long',
      rounds: 36,
      compactAfter: 20,
      model: 'claude-sonnet-4-5-20250929',
      start: T0,
    }),
  );
  await writeAged(
    files.short,
    claudeCodeSession({ id: 'short', rounds: 3, model: 'claude-sonnet-4-5-20250929', start: T0 }),
  );
  await writeAged(
    files.compactionCall,
    claudeCodeSession({
      id: 'acompact',
      rounds: 1,
      model: 'claude-sonnet-4-5-20250929',
      start: T0,
    }),
  );
  await writeAged(
    files.codex,
    codexRollout({ id: 'c0dex', rounds: 30, compactAfter: 20, model: 'gpt-5-codex', start: T0 }),
  );
  await writeAged(
    files.gemini,
    geminiChat({ id: 'snooze', rounds: 4, model: 'gemini-2.5-pro', start: T0 }),
  );
  return { home, files };
}
