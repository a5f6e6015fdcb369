/**
 * Where Dense keeps its files. `DENSE_HOME` puts everything under one directory (tests use it so
 * they never touch the real home); otherwise the platform's config and state directories.
 */
import path from 'node:path';
import envPaths from 'env-paths';

export interface DensePaths {
  /** Saved profiles (`<name>.json`). */
  readonly profilesDir: string;
  /** The user's prompt overrides (e.g. `compression.md`). */
  readonly promptsDir: string;
  /** Session recordings (JSONL, one file per session). */
  readonly sessionsDir: string;
  /** What `dense proxy` removed from requests, for `dense recall` / `dense mcp`. */
  readonly recallDir: string;
}

export function getDensePaths(env: NodeJS.ProcessEnv = process.env): DensePaths {
  const home = env.DENSE_HOME;
  if (home !== undefined && home.trim() !== '') {
    const root = path.resolve(home);
    return {
      profilesDir: path.join(root, 'profiles'),
      promptsDir: path.join(root, 'prompts'),
      sessionsDir: path.join(root, 'sessions'),
      recallDir: path.join(root, 'recall'),
    };
  }
  const platform = envPaths('dense', { suffix: '' });
  return {
    profilesDir: path.join(platform.config, 'profiles'),
    promptsDir: path.join(platform.config, 'prompts'),
    sessionsDir: path.join(platform.data, 'sessions'),
    recallDir: path.join(platform.data, 'recall'),
  };
}
