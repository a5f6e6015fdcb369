/**
 * The working budget with the real Claude Code binary (pinned), `claude-sonnet-4-6`, against a
 * loopback upstream that reports usage from the real prompt size and scripts Read after Read of
 * large files. Talking to the upstream directly, Claude Code auto-compacts (its compaction request
 * reaches the upstream); through `dense proxy` with defaults it finishes with no compaction
 * request reaching the upstream, the newest tool result of every request intact, and a later
 * step in which the scripted model runs `dense recall <id>` through Bash gets the original bytes.
 */
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecallArchive, startProxyServer, type ProxyServer } from '@dense/core';
import { DENSE_BIN, ensureBuilt } from '../test-utils/builtBinary.js';
import {
  RECALL_ID,
  startLongUpstream,
  STEP_ID,
  type LongUpstream,
} from '../test-utils/claudeCodeLongUpstream.js';
import {
  claudeCodeEnv,
  claudeCodeSuite,
  runClaudeCode,
  sessionDirs,
} from '../test-utils/claudeCodeSession.js';
import type { AgentRun } from '../test-utils/runAgentCli.js';

const { command, skipReason, title } = await claudeCodeSuite('working budget', ensureBuilt);

const ANSWER = 'DENSE-E2E-DONE: all files read.';
/** A small first file (its recalled original fits Claude Code's Bash output), then large ones. */
const FILES = 13;
const LINES = 1_200;

type Run = AgentRun;

function runClaude(cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
  return runClaudeCode({
    command,
    cwd,
    env,
    prompt: 'Read every file in this folder, one after the other.',
    model: 'claude-sonnet-4-6',
    allowedTools: 'Read,Bash',
    timeoutMs: 300_000,
    maxBuffer: 16 * 1024 * 1024,
  });
}

function fileText(index: number): string {
  return Array.from(
    { length: index === 0 ? 40 : LINES },
    (_, i) => `file ${index} line ${i + 1}: the quick brown fox jumps over the lazy dog`,
  ).join('\n');
}

type Block = Record<string, unknown>;

function resultText(result: Block): string {
  const content = result.content;
  return Array.isArray(content)
    ? (content as { text?: string }[]).map((part) => part.text ?? '').join('\n')
    : String(content);
}

function toolResults(raw: string, message: 'newest' | 'all'): Block[] {
  const body = JSON.parse(raw) as { messages: { content: unknown }[] };
  const messages = message === 'newest' ? body.messages.slice(-1) : body.messages;
  return messages.flatMap((entry) =>
    Array.isArray(entry.content)
      ? (entry.content as Block[]).filter((block) => block.type === 'tool_result')
      : [],
  );
}

/** The content of the request's newest Read result, whole, and its step. */
function newestResult(raw: string): { step: number; text: string } | undefined {
  const result = toolResults(raw, 'newest').find((block) =>
    String(block.tool_use_id).startsWith(STEP_ID),
  );
  if (result === undefined) return undefined;
  return {
    step: Number(String(result.tool_use_id).slice(STEP_ID.length)),
    text: resultText(result),
  };
}

/** The first tool_result with `id` in any of the requests. */
function firstResult(requests: readonly { raw: string }[], id: string): string | undefined {
  for (const request of requests) {
    const found = toolResults(request.raw, 'all').find((block) => block.tool_use_id === id);
    if (found !== undefined) return resultText(found);
  }
  return undefined;
}

describe.skipIf(skipReason !== undefined)(title, () => {
  let base: string;
  let direct: LongUpstream;
  let proxied: LongUpstream;
  let proxy: ProxyServer;
  let answering: ProxyServer;
  let answered: LongUpstream;
  let answeredRun: Run;
  let underReported: LongUpstream;
  let underReportedRun: Run;
  const answeringLines: string[] = [];
  const lines: string[] = [];
  let directRun: Run;
  let proxiedRun: Run;

  beforeAll(async () => {
    const dirs = await sessionDirs('dense-budget-cc-');
    base = dirs.base;
    const { workspace, home } = dirs;
    const files: string[] = [];
    for (let index = 0; index < FILES; index++) {
      const file = path.join(workspace, `part${index}.txt`);
      await writeFile(file, `${fileText(index)}\n`);
      files.push(file);
    }
    // `dense` on the PATH of the Bash tool, reading the proxy's recall archive under DENSE_HOME.
    const bin = path.join(base, 'bin');
    await mkdir(bin);
    await writeFile(
      path.join(bin, 'dense'),
      `#!/bin/sh\nexec "${process.execPath}" "${DENSE_BIN}" "$@"\n`,
    );
    await chmod(path.join(bin, 'dense'), 0o755);
    const denseHome = path.join(base, 'dense-home');
    const env = (baseUrl: string): NodeJS.ProcessEnv =>
      claudeCodeEnv({
        home,
        baseUrl,
        path: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
        extra: { DENSE_HOME: denseHome },
      });
    direct = await startLongUpstream({ files, answer: ANSWER });
    directRun = await runClaude(workspace, env(direct.url));
    proxied = await startLongUpstream({ files, answer: ANSWER });
    proxy = await startProxyServer({
      anthropicUpstream: proxied.url,
      recall: new RecallArchive({ dir: path.join(denseHome, 'recall') }),
      log: (line) => lines.push(line),
    });
    proxiedRun = await runClaude(workspace, env(proxy.url));
    // No working budget: Claude Code compacts, and Dense answers its compaction request.
    answered = await startLongUpstream({ files, answer: ANSWER });
    answering = await startProxyServer({
      anthropicUpstream: answered.url,
      workingBudget: 'off',
      recall: new RecallArchive({ dir: path.join(denseHome, 'recall') }),
      log: (line) => answeringLines.push(line),
    });
    answeredRun = await runClaude(workspace, env(answering.url));
    // The same session, usage reported at a tenth of the real prompt: Claude Code goes by it.
    underReported = await startLongUpstream({ files, answer: ANSWER, usageScale: 0.1 });
    underReportedRun = await runClaude(workspace, env(underReported.url));
  }, 600_000);

  afterAll(async () => {
    await proxy?.close();
    await answering?.close();
    await answered?.close();
    await underReported?.close();
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
    expect(proxied.main.length).toBe(FILES + 2);
    const peak = Math.max(...proxied.main.map((request) => request.reportedTokens));
    expect(peak).toBeLessThanOrEqual(142_000);
    const compacted = lines.filter((line) => line.includes('compacted')).length;
    console.log(
      `proxied: ${proxied.main.length} main requests, peak reported prompt ${peak}, ${compacted} request(s) compacted`,
    );
    expect(lines.some((line) => line.includes('to the working budget'))).toBe(true);
  });

  it('#24.1 #24.2 a later step runs `dense recall <id>` through Bash and gets the original bytes', () => {
    const original = firstResult(proxied.main, `${STEP_ID}0`);
    const recalled = firstResult(proxied.main, RECALL_ID);
    expect(original).toContain('file 0 line 40:');
    // Claude Code appends its own reminder block to the Bash result; the rest is the original.
    expect(recalled?.startsWith(original ?? '-')).toBe(true);
    const appended = recalled?.slice(original?.length ?? 0) ?? '';
    expect(appended).toMatch(/^\s*(<system-reminder>[\s\S]*?<\/system-reminder>\s*)*$/);
  });

  it('#24.1 the newest tool result of every request reaches the upstream whole', () => {
    for (const request of proxied.main) {
      const newest = newestResult(request.raw);
      if (newest === undefined) continue;
      expect(newest.text).toContain(`file ${newest.step} line 1:`);
      const lines = newest.step === 0 ? 40 : LINES;
      expect(newest.text).toContain(`file ${newest.step} line ${lines}:`);
    }
  });

  it('#24.1 without a working budget Claude Code compacts, Dense answers at once, and the session finishes', () => {
    expect(answeredRun).toMatchObject({ code: 0 });
    expect(answeredRun.stdout).toContain(ANSWER);
    expect(answered.compactionRequests).toHaveLength(0);
    const answeredLines = answeringLines.filter((line) => line.includes('answered by Dense'));
    expect(answeredLines).toHaveLength(1);
    // The client continues from Dense's summary: the next request holds it in its first message.
    const after = answered.main.find((request) => request.raw.includes('Dense summarized the'));
    expect(after?.raw).toContain('dense recall r');
  });

  it('#24.1 Claude Code decides by the usage the API reports, not by its own count of the prompt', () => {
    expect(underReportedRun).toMatchObject({ code: 0 });
    expect(underReportedRun.stdout).toContain(ANSWER);
    expect(underReported.compactionRequests).toHaveLength(0);
    const largest = Math.max(...underReported.main.map((request) => request.raw.length));
    // Its own count (characters / 4) passed the 167,000 threshold; the reported usage did not.
    expect(largest / 4).toBeGreaterThan(167_000);
  });
});
