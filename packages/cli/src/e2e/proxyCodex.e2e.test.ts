/**
 * The real Codex CLI (pinned) runs `codex exec` against `dense proxy` (as a custom model provider:
 * this Codex version ignores OPENAI_BASE_URL) with an upstream that answers in the Responses
 * streaming format. A plain answer: every request reaches the upstream exactly as Codex sent it.
 * A session scripted through Codex's `exec` (JavaScript) tool — cat a file, a patch that fails, a
 * patch that applies, cat again: the first cat goes upstream as the pointer only after the
 * successful patch, and the newest output is always intact.
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecallArchive, startProxyServer, type ProxyServer } from '@dense/core';
import { agentSuite, NOTES_TEXT, POINTER_VALUE } from '../test-utils/agentSuite.js';
import {
  runCodexExec,
  startCodexUpstream,
  type CodexRun,
  type CodexUpstream,
} from '../test-utils/codexUpstream.js';
import { CODEX_VERSION, installCodex } from '../test-utils/installAgentCli.js';

const { command, skipReason, title } = await agentSuite({
  name: 'dense proxy',
  agent: 'Codex',
  version: CODEX_VERSION,
  packageName: '@openai/codex',
  install: installCodex,
});

const ANSWER = 'DENSE-CODEX-DONE';

describe.skipIf(skipReason !== undefined)(title, () => {
  let base: string;
  let upstream: CodexUpstream;
  let proxy: ProxyServer;
  let result: CodexRun;

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'dense-proxy-codex-'));
    await mkdir(path.join(base, 'home', '.codex'), { recursive: true });
    await mkdir(path.join(base, 'ws'));
    upstream = await startCodexUpstream({ steps: [], answer: ANSWER });
    proxy = await startProxyServer({
      openaiUpstream: upstream.url,
      recordDir: path.join(base, 'record'),
      recall: new RecallArchive({ dir: path.join(base, 'recall') }),
    });
    result = await runCodexExec({
      command,
      base,
      cwd: path.join(base, 'ws'),
      baseUrl: `${proxy.url}/v1`,
      prompt: 'Say done.',
    });
  }, 300_000);

  afterAll(async () => {
    await proxy?.close();
    await upstream?.close();
    if (base !== undefined) await rm(base, { recursive: true, force: true });
  });

  it('#15 Codex exits 0 with the scripted answer through the proxy', () => {
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(ANSWER);
    expect(upstream.bodies.length).toBeGreaterThan(0);
  });

  it('#15 every Codex request is understood and reaches the upstream byte-identical', async () => {
    const dir = path.join(base, 'record');
    const files = (await readdir(dir)).sort();
    const records = await Promise.all(
      files.map(async (file) => JSON.parse(await readFile(path.join(dir, file), 'utf8')) as Json),
    );
    const chat = records.filter((record) => String(record.url).endsWith('/responses'));
    expect(chat.map((record) => record.body)).toEqual(upstream.bodies);
    expect(chat.every((record) => record.forwarded === '(unchanged)')).toBe(true);
    expect(JSON.stringify(records)).not.toContain('Bearer dummy');
    const stats = proxy.stats.toJSON().recent.filter((entry) => entry.route === 'openai-responses');
    expect(stats.every((entry) => entry.unsupported === undefined)).toBe(true);
    expect(stats.some((entry) => entry.usage?.cacheRead === 8000)).toBe(true);
  });
});

type Json = Record<string, unknown>;

const EXEC_ANSWER = 'DENSE-CODEX-EXEC-DONE: line 7 is edited.';
const patch = (oldLine: string) =>
  JSON.stringify(
    `*** Begin Patch\n*** Update File: notes.txt\n@@\n-${oldLine}\n+line 7: edited\n*** End Patch`,
  );
const EXEC_STEPS = [
  {
    callId: 'call_dense_cat_1',
    code: 'const r = await tools.exec_command({cmd: "cat notes.txt"});\ntext(r.output);',
  },
  { callId: 'call_dense_patch_bad', code: `await tools.apply_patch(${patch('line 7: missing')});` },
  { callId: 'call_dense_patch_ok', code: `await tools.apply_patch(${patch('line 7: original')});` },
  {
    callId: 'call_dense_cat_2',
    code: 'text((await tools.exec_command({cmd: "cat notes.txt"})).output);',
  },
] as const;

/** Per call id, the raw JSON of its output value; and the call id of the newest output. */
function execOutputs(raw: string): { outputs: Map<string, string>; newest?: string } {
  const input = (JSON.parse(raw) as { input: Json[] }).input;
  const items = input.filter((item) => item.type === 'custom_tool_call_output');
  const outputs = new Map(items.map((item) => [String(item.call_id), JSON.stringify(item.output)]));
  const newest = items.at(-1)?.call_id;
  return typeof newest === 'string' ? { outputs, newest } : { outputs };
}

describe.skipIf(skipReason !== undefined)(`${title}: exec tool session`, () => {
  let base: string;
  let upstream: CodexUpstream;
  let proxy: ProxyServer;
  let result: CodexRun;
  let fileAfter: string;

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'dense-proxy-codex-exec-'));
    await mkdir(path.join(base, 'home', '.codex'), { recursive: true });
    const workspace = path.join(base, 'ws');
    await mkdir(workspace);
    await writeFile(path.join(workspace, 'notes.txt'), NOTES_TEXT);
    upstream = await startCodexUpstream({ steps: EXEC_STEPS, answer: EXEC_ANSWER });
    proxy = await startProxyServer({
      openaiUpstream: upstream.url,
      recall: new RecallArchive({ dir: path.join(base, 'recall') }),
    });
    result = await runCodexExec({
      command,
      base,
      cwd: workspace,
      baseUrl: `${proxy.url}/v1`,
      prompt: 'Change line 7 of notes.txt to say edited.',
      extraArgs: ['-s', 'workspace-write'],
    });
    fileAfter = await readFile(path.join(workspace, 'notes.txt'), 'utf8');
  }, 300_000);

  afterAll(async () => {
    await proxy?.close();
    await upstream?.close();
    if (base !== undefined) await rm(base, { recursive: true, force: true });
  });

  it('#24.3 Codex runs the scripted exec calls through the proxy and exits 0 with the answer', () => {
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).toContain(EXEC_ANSWER);
    expect(upstream.bodies).toHaveLength(EXEC_STEPS.length + 1);
    expect(fileAfter).toContain('line 7: edited');
  });

  it('#24.3 the cat stays intact after the failed apply_patch and is the pointer after the applied one', () => {
    const [, first, afterFailed, afterApplied, last] = upstream.bodies.map(execOutputs);
    const [cat1, bad, cat2] = [EXEC_STEPS[0].callId, EXEC_STEPS[1].callId, EXEC_STEPS[3].callId];
    expect(first?.outputs.get(cat1)).toContain('line 400:');
    expect(afterFailed?.outputs.get(bad)).toContain('apply_patch verification failed');
    expect(afterFailed?.outputs.get(cat1)).toBe(first?.outputs.get(cat1));
    expect(afterApplied?.outputs.get(cat1)).toMatch(POINTER_VALUE);
    expect(last?.outputs.get(cat1)).toBe(afterApplied?.outputs.get(cat1));
    expect(last?.outputs.get(cat2)).toContain('line 7: edited');
    expect(last?.outputs.get(cat2)).toContain('line 400:');
  });

  it('#24.3 the newest output always reaches the upstream intact, and every request is understood', () => {
    for (const body of upstream.bodies.slice(1).map(execOutputs)) {
      expect(body.outputs.get(body.newest ?? '')).not.toMatch(POINTER_VALUE);
    }
    const stats = proxy.stats.toJSON().recent.filter((entry) => entry.route === 'openai-responses');
    expect(stats).toHaveLength(EXEC_STEPS.length + 1);
    expect(stats.every((entry) => entry.unsupported === undefined)).toBe(true);
    expect(stats.at(-1)?.pointers).toBe(1);
  });
});
