/**
 * The setup the end-to-end suites with the real Claude Code binary share: the pinned install and
 * the suite's title (or why it is skipped), a temp base with a workspace and a private HOME, the
 * environment that points Claude Code at a base URL with its outbound traffic off, and a headless
 * `claude -p` run.
 */
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { agentSuite, type AgentSuite } from './agentSuite.js';
import { CLAUDE_CODE_VERSION, installClaudeCode } from './installAgentCli.js';
import { runAgentCli, type AgentRun } from './runAgentCli.js';

/**
 * Installs the pinned Claude Code; `notReady` names anything else the suite needs that is missing
 * (checked after the install). The title reads `<name> with the real Claude Code <version>`.
 */
export function claudeCodeSuite(
  name: string,
  notReady?: () => Promise<string | undefined>,
): Promise<AgentSuite> {
  return agentSuite({
    name,
    agent: 'Claude Code',
    version: CLAUDE_CODE_VERSION,
    packageName: '@anthropic-ai/claude-code',
    install: installClaudeCode,
    ...(notReady === undefined ? {} : { notReady }),
  });
}

export interface SessionDirs {
  readonly base: string;
  readonly workspace: string;
  readonly home: string;
}

/** A fresh temp base named `prefix…` holding an empty `ws` workspace and `home`. */
export async function sessionDirs(prefix: string): Promise<SessionDirs> {
  const base = await mkdtemp(path.join(tmpdir(), prefix));
  const workspace = path.join(base, 'ws');
  const home = path.join(base, 'home');
  await mkdir(workspace);
  await mkdir(home);
  return { base, workspace, home };
}

/** Claude Code talking to `baseUrl` with a dummy key, HOME `home`, telemetry and updates off. */
export function claudeCodeEnv(input: {
  readonly home: string;
  readonly baseUrl: string;
  /** PATH for the session (default: this process's). */
  readonly path?: string;
  readonly extra?: NodeJS.ProcessEnv;
}): NodeJS.ProcessEnv {
  return {
    PATH: input.path ?? process.env.PATH,
    ...input.extra,
    HOME: input.home,
    ANTHROPIC_BASE_URL: input.baseUrl,
    ANTHROPIC_API_KEY: 'dummy',
    DISABLE_TELEMETRY: '1',
    DISABLE_ERROR_REPORTING: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  };
}

/** `claude [--continue] -p PROMPT [--model MODEL] --allowedTools TOOLS` in `cwd`. */
export function runClaudeCode(input: {
  readonly command: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly prompt: string;
  readonly model?: string;
  readonly allowedTools: string;
  readonly timeoutMs: number;
  readonly maxBuffer?: number;
  /** Continue the workspace's most recent session (`--continue`). */
  readonly continueSession?: boolean;
}): Promise<AgentRun> {
  const model = input.model === undefined ? [] : ['--model', input.model];
  const resume = input.continueSession === true ? ['--continue'] : [];
  return runAgentCli({
    command: input.command,
    args: [...resume, '-p', input.prompt, ...model, '--allowedTools', input.allowedTools],
    cwd: input.cwd,
    env: input.env,
    timeoutMs: input.timeoutMs,
    ...(input.maxBuffer === undefined ? {} : { maxBuffer: input.maxBuffer }),
  });
}
