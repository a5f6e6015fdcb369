/**
 * How Codex (pinned) compacts, and the working budget with it, against a loopback Responses
 * upstream that reports usage from the real prompt size and scripts `cat` after `cat` of large
 * files through Codex's `exec` tool. Re-measures: Codex goes by the reported usage (a session
 * reported at a tenth of its size never compacts although its own prompt passes the threshold);
 * the threshold (first reply reporting 244,600 total tokens: no compaction; 244,800: compaction);
 * the compaction request (an ordinary `/responses` call ending in a user message with Codex's
 * marker) and what follows it. Through `dense proxy` with defaults the session finishes with no
 * compaction request reaching the upstream and the newest output of every request intact, and a
 * last step in which the scripted model runs `dense recall <id>` through `exec` gets the first
 * output's original bytes; with the working budget off, Dense answers Codex's compaction request.
 */
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecallArchive, startProxyServer, type ProxyServer } from '@dense/core';
import { agentSuite } from '../test-utils/agentSuite.js';
import { DENSE_BIN, ensureBuilt } from '../test-utils/builtBinary.js';
import {
  CODEX_COMPACTION_MARKER,
  MOCK_SUMMARY,
  READ_ID,
  RECALL_CALL,
  startCodexLongUpstream,
  type CodexLongSession,
  type CodexLongUpstream,
} from '../test-utils/codexLongUpstream.js';
import { runCodexExec, type CodexRun } from '../test-utils/codexUpstream.js';
import { CODEX_VERSION, installCodex } from '../test-utils/installAgentCli.js';

const { command, skipReason, title } = await agentSuite({
  name: 'working budget',
  agent: 'Codex',
  version: CODEX_VERSION,
  packageName: '@openai/codex',
  install: installCodex,
  notReady: ensureBuilt,
});

const ANSWER = 'DENSE-CODEX-BUDGET-DONE: all files read.';
const FILES = 30;
const LINES = 560;
/** Codex 0.169's threshold for its default model: 90% of its 272,000-token window. */
const CODEX_THRESHOLD = 244_800;

type Json = Record<string, unknown>;

function fileText(index: number): string {
  return Array.from(
    { length: index === 0 ? 10 : LINES },
    (_, i) => `file ${index} line ${i + 1}: the quick brown fox jumps over the lazy dog`,
  ).join('\n');
}

const inputOf = (raw: string): Json[] => (JSON.parse(raw) as { input: Json[] }).input;

function outputText(item: Json): string {
  const parts = Array.isArray(item.output) ? (item.output as { text?: string }[]) : [];
  return parts.map((part) => part.text ?? '').join('\n');
}

/** The text of the request's newest `exec` output, and its step. */
function newestOutput(raw: string): { step: number; text: string } | undefined {
  const item = inputOf(raw)
    .filter((entry) => entry.type === 'custom_tool_call_output')
    .at(-1);
  const id = typeof item?.call_id === 'string' ? item.call_id : '';
  if (item === undefined || !id.startsWith(READ_ID)) return undefined;
  return { step: Number(id.slice(READ_ID.length)), text: outputText(item) };
}

/** The text of the first output of `callId` in any of the requests. */
function firstOutput(requests: readonly { raw: string }[], callId: string): string | undefined {
  for (const request of requests) {
    const item = inputOf(request.raw).find(
      (entry) => entry.type === 'custom_tool_call_output' && entry.call_id === callId,
    );
    if (item !== undefined) return outputText(item);
  }
  return undefined;
}

describe.skipIf(skipReason !== undefined)(title, () => {
  let base: string;
  let workspace: string;
  const files = Array.from({ length: FILES }, (_, i) => `part${i}.txt`);
  const upstreams: CodexLongUpstream[] = [];
  const proxies: ProxyServer[] = [];

  async function run(
    session: Omit<CodexLongSession, 'answer'>,
    proxy?: { workingBudget?: 'off'; lines: string[] },
  ): Promise<{ upstream: CodexLongUpstream; result: CodexRun }> {
    const denseCommand = path.join(base, 'bin', 'dense');
    const upstream = await startCodexLongUpstream({ ...session, answer: ANSWER, denseCommand });
    upstreams.push(upstream);
    let url = upstream.url;
    if (proxy !== undefined) {
      const server = await startProxyServer({
        openaiUpstream: upstream.url,
        recall: new RecallArchive({ dir: path.join(base, 'dense-home', 'recall') }),
        log: (line) => proxy.lines.push(line),
        ...(proxy.workingBudget === undefined ? {} : { workingBudget: proxy.workingBudget }),
      });
      proxies.push(server);
      url = server.url;
    }
    const result = await runCodexExec({
      command,
      base,
      cwd: workspace,
      baseUrl: `${url}/v1`,
      prompt: 'Read every file in this folder, one after the other.',
      // The commands only read the test's own files: no sandbox to set up around each of them.
      extraArgs: ['--sandbox', 'danger-full-access'],
      // `dense` reads the proxy's recall archive.
      env: { DENSE_HOME: path.join(base, 'dense-home') },
    });
    return { upstream, result };
  }

  interface Run {
    upstream: CodexLongUpstream;
    result: CodexRun;
  }
  let direct: Run;
  let proxied: Run;
  let underReported: Run;
  let answered: Run;
  let below: Run;
  let at: Run;
  const proxiedLines: string[] = [];
  const answeringLines: string[] = [];

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'dense-budget-codex-'));
    await mkdir(path.join(base, 'home', '.codex'), { recursive: true });
    workspace = path.join(base, 'ws');
    await mkdir(workspace);
    await mkdir(path.join(base, 'bin'));
    const dense = path.join(base, 'bin', 'dense');
    await writeFile(dense, `#!/bin/sh\nexec "${process.execPath}" "${DENSE_BIN}" "$@"\n`);
    await chmod(dense, 0o755);
    for (const [index, file] of files.entries()) {
      await writeFile(path.join(workspace, file), `${fileText(index)}\n`);
    }
    direct = await run({ files });
    proxied = await run({ files }, { lines: proxiedLines });
    underReported = await run({ files, usageScale: 0.1 });
    answered = await run({ files }, { workingBudget: 'off', lines: answeringLines });
    // One small `cat` after a first reply reporting just under / at the threshold.
    below = await run({ files: files.slice(0, 1), firstTotal: CODEX_THRESHOLD - 200 });
    at = await run({ files: files.slice(0, 1), firstTotal: CODEX_THRESHOLD });
  }, 600_000);

  afterAll(async () => {
    for (const proxy of proxies) await proxy.close();
    for (const upstream of upstreams) await upstream.close();
    if (base !== undefined) await rm(base, { recursive: true, force: true });
  });

  it('#24.1 talking to the upstream directly, Codex auto-compacts by an ordinary /responses request', () => {
    expect(direct.result).toMatchObject({ code: 0 });
    expect(direct.result.stdout).toContain(ANSWER);
    const { main, compactionRequests } = direct.upstream;
    expect(compactionRequests.length).toBeGreaterThan(0);
    const peak = Math.max(...main.map((request) => request.reportedTotal));
    console.log(
      `direct: ${main.length} main requests, peak reported total ${peak}, ${compactionRequests.length} compaction request(s)`,
    );
  });

  it('#24.1 through dense proxy with defaults it finishes with no compaction request upstream', () => {
    expect(proxied.result).toMatchObject({ code: 0 });
    expect(proxied.result.stdout).toContain(ANSWER);
    const { main, compactionRequests } = proxied.upstream;
    expect(compactionRequests).toHaveLength(0);
    expect(main.length).toBe(FILES + 2);
    const peak = Math.max(...main.map((request) => request.reportedTotal));
    expect(peak).toBeLessThan(CODEX_THRESHOLD);
    const compacted = proxiedLines.filter((line) => line.includes('to the working budget'));
    console.log(
      `proxied: ${main.length} main requests, peak reported total ${peak}, ${compacted.length} request(s) compacted`,
    );
    expect(compacted.length).toBeGreaterThan(0);
  });

  it('#24.2 a later step runs `dense recall <id>` through exec and gets the original bytes', () => {
    const original = firstOutput(proxied.upstream.main, `${READ_ID}0`) ?? '';
    const recalled = firstOutput(proxied.upstream.main, RECALL_CALL);
    expect(original).toContain('file 0 line 10:');
    // Codex puts its own status lines before the script's output; the output is the original.
    expect(recalled).toBeDefined();
    expect(recalled?.endsWith(original)).toBe(true);
  });

  it('#24.1 the newest exec output of every request reaches the upstream whole', () => {
    const outputs = proxied.upstream.main.map((request) => newestOutput(request.raw));
    // #34.1: told its history is full, Codex compacts right after an output (as it does direct);
    // that output reaches the model inside Dense's answer (its specifics and recall id), not whole.
    const answered = proxiedLines.filter((line) => line.includes('answered by Dense')).length;
    expect(outputs.filter((newest) => newest !== undefined)).toHaveLength(FILES - answered);
    for (const newest of outputs) {
      if (newest === undefined) continue;
      const lines = newest.step === 0 ? 10 : LINES;
      expect(newest.text).toContain(`file ${newest.step} line 1:`);
      expect(newest.text).toContain(`file ${newest.step} line ${lines}:`);
    }
  });

  it('#24.1 compaction is sticky: between compactions each request extends the previous one byte for byte', () => {
    const main = proxied.upstream.main.map((request) => inputOf(request.raw));
    let rewrites = 0;
    for (let i = 1; i < main.length; i++) {
      const before = (main[i - 1] ?? []).map((item) => JSON.stringify(item));
      const after = (main[i] ?? []).map((item) => JSON.stringify(item));
      if (before.some((item, index) => after[index] !== item)) rewrites++;
    }
    const compacted = proxiedLines.filter((line) => line.includes('to the working budget'));
    // A client compaction (#34.1: Codex told its history is full, Dense answering) restarts it.
    const answered = proxiedLines.filter((line) => line.includes('answered by Dense'));
    expect(rewrites).toBe(compacted.length + answered.length);
  });

  it('#24.1 Codex goes by the usage the API reports, not by its own count of the prompt', () => {
    expect(underReported.result).toMatchObject({ code: 0 });
    expect(underReported.result.stdout).toContain(ANSWER);
    expect(underReported.upstream.compactionRequests).toHaveLength(0);
    const largest = Math.max(...underReported.upstream.main.map((request) => request.raw.length));
    expect(largest / 4).toBeGreaterThan(CODEX_THRESHOLD);
  });

  it('#24.1 the threshold is 90% of the 272,000-token window: reported total plus the new items reaching 244,800', () => {
    expect(below.upstream.compactionRequests).toHaveLength(0);
    expect(at.upstream.compactionRequests).toHaveLength(1);
    for (const { result } of [below, at]) expect(result.stdout).toContain(ANSWER);
  });

  it('#24.1 the compaction request is the conversation plus one user message with the marker; after it, the task and the summary', () => {
    const [request = ''] = direct.upstream.compactionRequests;
    const body = JSON.parse(request) as Json & { input: Json[] };
    const index = direct.upstream.main.findIndex((main) => main.raw.includes(MOCK_SUMMARY));
    const before = JSON.parse(direct.upstream.main[index - 1]?.raw ?? '{}') as Json & {
      input: Json[];
    };
    expect(body.model).toBe(before.model);
    expect(body.stream).toBe(true);
    const last = body.input.at(-1) as { role?: string; content?: { text?: string }[] };
    expect(last.role).toBe('user');
    expect(last.content?.[0]?.text?.startsWith(CODEX_COMPACTION_MARKER)).toBe(true);
    // The previous main request's items, then the newest call and its output, then the marker.
    const items = body.input.map((item) => JSON.stringify(item));
    expect(items.slice(0, before.input.length)).toEqual(
      before.input.map((item) => JSON.stringify(item)),
    );
    expect(body.input.slice(before.input.length, -1).map((item) => item.type)).toEqual([
      'custom_tool_call',
      'custom_tool_call_output',
    ]);
    // Afterwards: the leading messages, one user message holding the summary, no earlier calls.
    const after = inputOf(direct.upstream.main[index]?.raw ?? '{"input":[]}');
    expect(after.some((item) => item.type === 'custom_tool_call')).toBe(false);
    const summary = after.at(-1) as { role?: string; content?: { text?: string }[] };
    expect(summary.role).toBe('user');
    expect(summary.content?.[0]?.text?.endsWith(MOCK_SUMMARY)).toBe(true);
  });

  it('#24.1 without a working budget Codex compacts, Dense answers at once, and the session finishes', () => {
    expect(answered.result).toMatchObject({ code: 0 });
    expect(answered.result.stdout).toContain(ANSWER);
    expect(answered.upstream.compactionRequests).toHaveLength(0);
    const lines = answeringLines.filter((line) => line.includes('answered by Dense'));
    expect(lines.length).toBeGreaterThan(0);
    const after = answered.upstream.main.find((request) =>
      request.raw.includes('Dense answered this compaction request'),
    );
    expect(after?.raw).toContain('dense recall r');
  });
});
