/**
 * How Qwen Code (pinned) compacts, and the working budget with it, against a loopback Chat
 * Completions upstream that scripts `read_file` after `read_file` of large files and reports
 * usage from the real prompt size (characters / 3, as a denser tokenizer would). Re-measures:
 * Qwen Code goes by the reported usage (a first reply reporting 160,000 prompt tokens plus one
 * read: no compaction; 161,000: compaction, although the real prompt is ~18k tokens); its
 * threshold for a model it does not know (167,000 of its default 200,000 window); that a 400
 * "context length exceeded" makes it compact and retry; the compaction request (the main
 * request plus the newest call, its result and one user message ending in its directive) and
 * what follows it. Through `dense proxy` with defaults the session finishes with no compaction
 * request reaching the upstream and the newest result of every request intact; with the working
 * budget off, Dense answers Qwen Code's compaction request and Qwen Code continues from it.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecallArchive, startProxyServer, type ProxyServer } from '@dense/core';
import { agentSuite, POINTER_VALUE } from '../test-utils/agentSuite.js';
import { installQwenCode, QWEN_CODE_VERSION } from '../test-utils/installAgentCli.js';
import { runQwenCode, type QwenCodeRun } from '../test-utils/qwenCodeUpstream.js';
import {
  MOCK_SUMMARY,
  QWEN_COMPACTION_DIRECTIVE,
  READ_ID,
  startQwenLongUpstream,
  type QwenLongSession,
  type QwenLongUpstream,
} from '../test-utils/qwenLongUpstream.js';

const { command, skipReason, title } = await agentSuite({
  name: 'working budget',
  agent: 'Qwen Code',
  version: QWEN_CODE_VERSION,
  packageName: '@qwen-code/qwen-code',
  install: installQwenCode,
});

const ANSWER = 'DENSE-QWEN-BUDGET-DONE: all files read.';
const FILES = 25;
const LINES = 560;
/** Qwen Code 0.24.4's threshold for a model it does not know (window 200,000). */
const QWEN_THRESHOLD = 167_000;
/** Reported usage = characters / 3. */
const DENSE_TOKENIZER = 4 / 3;

type Json = Record<string, unknown>;

function fileText(index: number): string {
  return Array.from(
    { length: LINES },
    (_, i) => `file ${index} line ${i + 1}: the quick brown fox jumps over the lazy dog`,
  ).join('\n');
}

const messagesOf = (raw: string): Json[] => (JSON.parse(raw) as { messages: Json[] }).messages;
const textOf = (message: Json | undefined): string =>
  typeof message?.content === 'string' ? message.content : JSON.stringify(message?.content);

/** The newest `tool` message's call step and text. */
function newestResult(raw: string): { step: number; text: string } | undefined {
  const tool = messagesOf(raw)
    .filter((message) => message.role === 'tool')
    .at(-1);
  const id = typeof tool?.tool_call_id === 'string' ? tool.tool_call_id : '';
  if (!id.startsWith(READ_ID)) return undefined;
  return { step: Number(id.slice(READ_ID.length)), text: textOf(tool) };
}

interface Session {
  readonly upstream: QwenLongUpstream;
  readonly run: QwenCodeRun;
  readonly proxy?: ProxyServer;
}

describe.skipIf(skipReason !== undefined)(title, () => {
  let base: string;
  let files: string[];
  const sessions = new Map<string, Session>();
  const closers: (() => Promise<void>)[] = [];

  async function session(input: {
    name: string;
    script: Partial<QwenLongSession> & { files: readonly string[] };
    proxy?: { workingBudget?: 'off' };
  }): Promise<Session> {
    const upstream = await startQwenLongUpstream({ answer: ANSWER, ...input.script });
    closers.push(() => upstream.close());
    const dir = path.join(base, input.name);
    await mkdir(dir);
    const proxy =
      input.proxy === undefined
        ? undefined
        : await startProxyServer({
            openaiUpstream: upstream.url,
            recall: new RecallArchive({ dir: path.join(dir, 'recall') }),
            ...input.proxy,
          });
    if (proxy !== undefined) closers.push(() => proxy.close());
    const run = await runQwenCode({
      command,
      base: dir,
      cwd: path.join(base, 'ws'),
      baseUrl: `${proxy?.url ?? upstream.url}/v1`,
      prompt: 'Read the files one by one.',
    });
    const result = proxy === undefined ? { upstream, run } : { upstream, run, proxy };
    sessions.set(input.name, result);
    return result;
  }

  const get = (name: string): Session => {
    const found = sessions.get(name);
    if (found === undefined) throw new Error(`no session ${name}`);
    return found;
  };

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'dense-qwen-budget-'));
    const workspace = path.join(base, 'ws');
    await mkdir(workspace);
    files = [];
    for (let index = 0; index < FILES; index++) {
      const file = path.join(workspace, `f${index}.txt`);
      await writeFile(file, fileText(index));
      files.push(file);
    }
    const long = { files, usageScale: DENSE_TOKENIZER };
    await session({ name: 'direct', script: long });
    await session({ name: 'below', script: { files: files.slice(0, 2), firstPrompt: 160_000 } });
    await session({ name: 'above', script: { files: files.slice(0, 2), firstPrompt: 161_000 } });
    await session({
      name: 'overflow',
      script: { files: files.slice(0, 6), usageScale: 0.1, overflowAbove: 40_000 },
    });
    await session({ name: 'proxy', script: long, proxy: {} });
    await session({ name: 'answered', script: long, proxy: { workingBudget: 'off' } });
  }, 600_000);

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    if (base !== undefined) await rm(base, { recursive: true, force: true });
  });

  it('#24.1 talking to the mock directly, Qwen Code compacts once the reported usage plus the next result reaches 167,000', () => {
    const { upstream, run } = get('direct');
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toContain(ANSWER);
    expect(upstream.compactionRequests).toHaveLength(1);
    const compaction = messagesOf(upstream.compactionRequests[0] ?? '');
    const before = upstream.main.findIndex(
      (request) => messagesOf(request.raw).length === compaction.length - 3,
    );
    const reported = upstream.main[before]?.reportedPrompt ?? 0;
    expect(reported).toBeLessThan(QWEN_THRESHOLD);
    expect(reported).toBeGreaterThan(QWEN_THRESHOLD - 10_000);
    expect(upstream.main.every((request) => (request.reportedPrompt ?? 0) < QWEN_THRESHOLD)).toBe(
      true,
    );
  });

  it('#24.1 it goes by the reported usage, not its own count: a first reply of 160,000 plus one read does not compact, 161,000 does', () => {
    const below = get('below');
    const above = get('above');
    expect(below.run).toMatchObject({ code: 0 });
    expect(above.run).toMatchObject({ code: 0 });
    expect(below.upstream.compactionRequests).toHaveLength(0);
    expect(above.upstream.compactionRequests).toHaveLength(1);
    // The real prompt is far below the threshold (characters / 4).
    const first = above.upstream.main[0]?.raw ?? '';
    expect(first.length / 4).toBeLessThan(30_000);
  });

  it('#24.1 a 400 "context length exceeded" makes it compact and retry', () => {
    const { upstream, run } = get('overflow');
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toContain(ANSWER);
    const refused = upstream.main.findIndex((request) => request.reportedPrompt === undefined);
    expect(refused).toBeGreaterThan(0);
    expect(upstream.compactionRequests).toHaveLength(1);
    const retry = messagesOf(upstream.main[refused + 1]?.raw ?? '');
    expect(textOf(retry[1])).toContain('MOCK-SUMMARY');
  });

  it('#24.1 the compaction request is the main request plus the newest call, its result and a user message ending in the directive; same system, tools and model; the next request holds the summary and that call again', () => {
    const { upstream } = get('direct');
    const raw = upstream.compactionRequests[0] ?? '';
    const body = JSON.parse(raw) as Json & { messages: Json[] };
    const index = upstream.main.findIndex(
      (request) => messagesOf(request.raw).length === body.messages.length - 3,
    );
    const main = JSON.parse(upstream.main[index]?.raw ?? '{}') as Json & { messages: Json[] };
    expect(body.messages.slice(0, main.messages.length)).toEqual(main.messages);
    expect(body.tools).toEqual(main.tools);
    expect(body.model).toBe(main.model);
    expect(body.stream).toBe(true);
    expect(body.max_tokens).toBe(20_000);
    const [call, result, instruction] = body.messages.slice(-3);
    expect(call?.role).toBe('assistant');
    expect(result?.role).toBe('tool');
    expect(instruction?.role).toBe('user');
    const parts = instruction?.content as { type: string; text: string }[];
    expect(parts).toHaveLength(1);
    expect(parts[0]?.text.endsWith(QWEN_COMPACTION_DIRECTIVE)).toBe(true);
    const after = messagesOf(upstream.main[index + 1]?.raw ?? '');
    expect(after[0]?.role).toBe('system');
    expect(textOf(after[1])).toContain(MOCK_SUMMARY.slice(MOCK_SUMMARY.indexOf('<state')));
    expect(after.at(-1)?.tool_call_id).toBe(result?.tool_call_id);
  });

  it('#24.1 through dense proxy with defaults: no compaction request reaches the upstream, the reported usage stays far below 167,000, and the newest result is always intact', () => {
    const { upstream, run, proxy } = get('proxy');
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toContain(ANSWER);
    expect(upstream.compactionRequests).toHaveLength(0);
    expect(upstream.main).toHaveLength(FILES + 1);
    const peak = Math.max(...upstream.main.map((request) => request.reportedPrompt ?? 0));
    expect(peak).toBeLessThan(QWEN_THRESHOLD / 2);
    for (const request of upstream.main.slice(1)) {
      const newest = newestResult(request.raw);
      expect(newest?.text).toContain(`file ${newest?.step} line 1:`);
      expect(newest?.text).toContain(`file ${newest?.step} line 400:`);
      expect(newest?.text).not.toMatch(POINTER_VALUE);
    }
    const compacted = proxy?.stats.toJSON().recent.filter((entry) => entry.compaction);
    expect(compacted?.length).toBeGreaterThan(0);
  });

  it("#24.1 with the working budget off, Dense answers Qwen Code's compaction request and Qwen Code continues from Dense's summary", () => {
    const { upstream, run, proxy } = get('answered');
    expect(run).toMatchObject({ code: 0 });
    expect(run.stdout).toContain(ANSWER);
    expect(upstream.compactionRequests).toHaveLength(0);
    const answered = proxy?.stats
      .toJSON()
      .recent.filter((entry) => entry.compaction?.kind === 'answered');
    expect(answered).toHaveLength(1);
    const resumed = upstream.main.find((request) =>
      textOf(messagesOf(request.raw)[1]).includes('<state_snapshot>'),
    );
    const summary = textOf(messagesOf(resumed?.raw ?? '[]')[1]);
    expect(summary).toContain('Dense summarized');
    expect(summary).toMatch(/recall id r[0-9a-f]{10}/);
    expect(summary).not.toContain('<analysis>');
  });
});
