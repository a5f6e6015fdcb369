/**
 * The working budget with the real Claude Code binary (pinned), `claude-sonnet-4-6`, against a
 * loopback upstream that reports usage from the real prompt size and scripts Read after Read of
 * large files. Talking to the upstream directly, Claude Code auto-compacts (its compaction request
 * reaches the upstream); through `dense proxy` with defaults it finishes with no compaction
 * request reaching the upstream, and the newest tool result of every request intact.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProxyServer, type ProxyServer } from '@dense/core';
import {
  startLongUpstream,
  STEP_ID,
  type LongUpstream,
} from '../test-utils/claudeCodeLongUpstream.js';
import { CLAUDE_CODE_VERSION, installClaudeCode } from '../test-utils/installAgentCli.js';

const install = await installClaudeCode();
const skipReason = install.kind === 'unavailable' ? install.reason : undefined;
const title =
  skipReason === undefined
    ? `working budget with the real Claude Code ${CLAUDE_CODE_VERSION}`
    : `working budget with the real Claude Code (skipped: @anthropic-ai/claude-code could not be installed: ${skipReason})`;

const ANSWER = 'DENSE-E2E-DONE: all files read.';
const FILES = 12;
const LINES = 1_200;

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runClaude(command: readonly string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  const [binary = '', ...prefix] = command;
  const args = [
    ...prefix,
    '-p',
    'Read every file in this folder, one after the other.',
    '--model',
    'claude-sonnet-4-6',
    '--allowedTools',
    'Read',
  ];
  return new Promise((resolve) => {
    const child = execFile(
      binary,
      args,
      { cwd, env, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resolve({ code: error ? (child.exitCode ?? 1) : 0, stdout, stderr }),
    );
    child.stdin?.end();
  });
}

function fileText(index: number): string {
  return Array.from(
    { length: LINES },
    (_, i) => `file ${index} line ${i + 1}: the quick brown fox jumps over the lazy dog`,
  ).join('\n');
}

/** The content of the request's newest tool_result, whole, and its step. */
function newestResult(raw: string): { step: number; text: string } | undefined {
  const body = JSON.parse(raw) as { messages: { content: unknown }[] };
  const last = body.messages.at(-1)?.content;
  const blocks = Array.isArray(last) ? (last as Record<string, unknown>[]) : [];
  const result = blocks.find((block) => block.type === 'tool_result');
  if (result === undefined) return undefined;
  const content = result.content;
  const text = Array.isArray(content)
    ? (content as { text?: string }[]).map((part) => part.text ?? '').join('')
    : String(content);
  return { step: Number(String(result.tool_use_id).slice(STEP_ID.length)), text };
}

describe.skipIf(skipReason !== undefined)(title, () => {
  let base: string;
  let direct: LongUpstream;
  let proxied: LongUpstream;
  let proxy: ProxyServer;
  const lines: string[] = [];
  let directRun: Run;
  let proxiedRun: Run;

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'dense-budget-cc-'));
    const workspace = path.join(base, 'ws');
    await mkdir(workspace);
    await mkdir(path.join(base, 'home'));
    const files: string[] = [];
    for (let index = 0; index < FILES; index++) {
      const file = path.join(workspace, `part${index}.txt`);
      await writeFile(file, `${fileText(index)}\n`);
      files.push(file);
    }
    const env = (baseUrl: string): NodeJS.ProcessEnv => ({
      PATH: process.env.PATH,
      HOME: path.join(base, 'home'),
      ANTHROPIC_BASE_URL: baseUrl,
      ANTHROPIC_API_KEY: 'dummy',
      DISABLE_TELEMETRY: '1',
      DISABLE_ERROR_REPORTING: '1',
      DISABLE_AUTOUPDATER: '1',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    });
    const command = install.kind === 'installed' ? install.command : [];
    direct = await startLongUpstream({ files, answer: ANSWER });
    directRun = await runClaude(command, workspace, env(direct.url));
    proxied = await startLongUpstream({ files, answer: ANSWER });
    proxy = await startProxyServer({
      anthropicUpstream: proxied.url,
      log: (line) => lines.push(line),
    });
    proxiedRun = await runClaude(command, workspace, env(proxy.url));
  }, 600_000);

  afterAll(async () => {
    await proxy?.close();
    await direct?.close();
    await proxied?.close();
    if (base !== undefined) await rm(base, { recursive: true, force: true });
  });

  it('#24.1 talking to the upstream directly, Claude Code auto-compacts', () => {
    expect(directRun).toMatchObject({ code: 0 });
    expect(directRun.stdout).toContain(ANSWER);
    expect(direct.compactionRequests.length).toBeGreaterThan(0);
    const peak = Math.max(...direct.main.map((request) => request.reportedTokens));
    console.log(
      `direct: ${direct.main.length} main requests, peak reported prompt ${peak}, ${direct.compactionRequests.length} compaction request(s)`,
    );
  });

  it('#24.1 through dense proxy with defaults it finishes with no compaction request upstream', () => {
    expect(proxiedRun).toMatchObject({ code: 0 });
    expect(proxiedRun.stdout).toContain(ANSWER);
    expect(proxied.compactionRequests).toHaveLength(0);
    expect(proxied.main.length).toBe(FILES + 1);
    const peak = Math.max(...proxied.main.map((request) => request.reportedTokens));
    expect(peak).toBeLessThanOrEqual(142_000);
    const compacted = lines.filter((line) => line.includes('compacted')).length;
    console.log(
      `proxied: ${proxied.main.length} main requests, peak reported prompt ${peak}, ${compacted} request(s) compacted`,
    );
    expect(lines.some((line) => line.includes('to the working budget'))).toBe(true);
  });

  it('#24.1 the newest tool result of every request reaches the upstream whole', () => {
    for (const request of proxied.main) {
      const newest = newestResult(request.raw);
      if (newest === undefined) continue;
      expect(newest.text).toContain(`file ${newest.step} line 1:`);
      expect(newest.text).toContain(`file ${newest.step} line ${LINES}:`);
    }
  });
});
