/**
 * Builds real CLI sessions for tests: temp workspace and DENSE_HOME, a ScriptedProvider in place of
 * the network, and cleanup. Never imported by production code.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ScriptedProvider, type ScriptedReply } from '@dense/core/test-utils';
import type { CliConfig } from '../args/CliConfig.js';
import { buildSession } from '../session/buildSession.js';
import type { CliSession } from '../session/CliSession.js';

export interface TestDirs {
  readonly base: string;
  readonly workspace: string;
  readonly home: string;
  readonly env: NodeJS.ProcessEnv;
  cleanup(): Promise<void>;
}

export async function makeTestDirs(): Promise<TestDirs> {
  const base = await mkdtemp(path.join(tmpdir(), 'dense-cli-'));
  const workspace = path.join(base, 'ws');
  const home = path.join(base, 'home');
  await mkdir(workspace);
  return {
    base,
    workspace,
    home,
    env: { DENSE_HOME: home },
    cleanup: () => rm(base, { recursive: true, force: true }),
  };
}

export interface TestSessionOptions {
  readonly dirs: TestDirs;
  readonly replies?: readonly ScriptedReply[];
  readonly config?: Partial<CliConfig>;
  readonly interactive?: boolean;
  /** Every provider the session builds (one per configuration). */
  readonly providers?: ScriptedProvider[];
}

export interface TestSession {
  readonly cli: CliSession;
  readonly provider: ScriptedProvider;
}

/** A session whose every provider is a ScriptedProvider sharing `replies` (first one built). */
export async function makeTestSession(options: TestSessionOptions): Promise<TestSession> {
  const built = options.providers ?? [];
  const shared = new ScriptedProvider(options.replies ?? []);
  const cli = await buildSession(
    { settings: [], yolo: false, workspace: options.dirs.workspace, ...options.config },
    {
      env: options.dirs.env,
      interactive: options.interactive ?? true,
      createProvider: (config) => {
        const provider =
          built.length === 0 ? shared : new ScriptedProvider([], config.provider, config.model);
        built.push(provider);
        return provider;
      },
      now: () => Date.UTC(2026, 10, 22, 8, 30, 0),
    },
  );
  return { cli, provider: shared };
}
