/**
 * The real Qwen Code CLI (pinned) runs headless against `dense proxy` through its OpenAI auth
 * type (Chat Completions, `OPENAI_BASE_URL`) with a scripted upstream: `read_file` a file, an
 * `edit` that fails, an `edit` that applies, `read_file` again. The first read goes upstream as
 * the pointer only after the applied edit; the newest result always reaches the upstream intact.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecallArchive, startProxyServer, type ProxyServer } from '@dense/core';
import { installQwenCode, QWEN_CODE_VERSION } from '../test-utils/installAgentCli.js';
import {
  runQwenCode,
  startChatUpstream,
  type ChatToolStep,
  type ChatUpstream,
  type QwenCodeRun,
} from '../test-utils/qwenCodeUpstream.js';

const install = await installQwenCode();
const skipReason = install.kind === 'unavailable' ? install.reason : undefined;
const title =
  skipReason === undefined
    ? `dense proxy with the real Qwen Code ${QWEN_CODE_VERSION}`
    : `dense proxy with the real Qwen Code (skipped: @qwen-code/qwen-code could not be installed: ${skipReason})`;

const ANSWER = 'DENSE-QWEN-DONE: line 7 is edited.';

/** A proxy pointer as a JSON string value: it names the result's recall id. */
const POINTER =
  /^"\[Result pruned \(stale read\) — run `dense recall r[0-9a-f]{10}` to see the original\]"$/;

const steps = (file: string): ChatToolStep[] => [
  { callId: 'call_dense_read_1', name: 'read_file', arguments: { file_path: file } },
  {
    callId: 'call_dense_edit_bad',
    name: 'edit',
    arguments: { file_path: file, old_string: 'line 7: missing', new_string: 'line 7: edited' },
  },
  {
    callId: 'call_dense_edit_ok',
    name: 'edit',
    arguments: { file_path: file, old_string: 'line 7: original', new_string: 'line 7: edited' },
  },
  { callId: 'call_dense_read_2', name: 'read_file', arguments: { file_path: file } },
];

type Json = Record<string, unknown>;
type StatsJson = ReturnType<ProxyServer['stats']['toJSON']>;

/** Per tool call id, the raw JSON of its `tool` message content; and the newest call id. */
function toolOutputs(raw: string): { outputs: Map<string, string>; newest?: string } {
  const messages = (JSON.parse(raw) as { messages: Json[] }).messages;
  const tools = messages.filter((message) => message.role === 'tool');
  const outputs = new Map(
    tools.map((message) => [String(message.tool_call_id), JSON.stringify(message.content)]),
  );
  const newest = tools.at(-1)?.tool_call_id;
  return typeof newest === 'string' ? { outputs, newest } : { outputs };
}

describe.skipIf(skipReason !== undefined)(title, () => {
  let base: string;
  let upstream: ChatUpstream;
  let proxy: ProxyServer;
  let result: QwenCodeRun;
  let fileAfter: string;
  let script: ChatToolStep[];
  const fileLines = Array.from(
    { length: 400 },
    (_, i) =>
      `line ${i + 1}: ${i === 6 ? 'original' : 'the quick brown fox jumps over the lazy dog'}`,
  );

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'dense-proxy-qwen-'));
    const workspace = path.join(base, 'ws');
    await mkdir(workspace);
    const notes = path.join(workspace, 'notes.txt');
    await writeFile(notes, `${fileLines.join('\n')}\n`);
    script = steps(notes);
    upstream = await startChatUpstream({ steps: script, answer: ANSWER });
    proxy = await startProxyServer({
      openaiUpstream: upstream.url,
      recall: new RecallArchive({ dir: path.join(base, 'recall') }),
    });
    result = await runQwenCode({
      command: install.kind === 'installed' ? install.command : [],
      base,
      cwd: workspace,
      baseUrl: `${proxy.url}/v1`,
      prompt: 'Change line 7 of notes.txt to say edited.',
    });
    fileAfter = await readFile(notes, 'utf8');
  }, 300_000);

  afterAll(async () => {
    await proxy?.close();
    await upstream?.close();
    if (base !== undefined) await rm(base, { recursive: true, force: true });
  });

  it('#24.3 Qwen Code runs the scripted read_file and edit calls through the proxy and exits 0', () => {
    expect(result).toMatchObject({ code: 0 });
    expect(result.stdout).toContain(ANSWER);
    expect(upstream.bodies).toHaveLength(script.length + 1);
    expect(fileAfter).toContain('line 7: edited');
  });

  it('#24.3 the read stays intact after the failed edit and is the pointer after the applied one', () => {
    const [, first, afterFailed, afterApplied, last] = upstream.bodies.map(toolOutputs);
    const [read1, bad, , read2] = script.map((step) => step.callId);
    expect(first?.outputs.get(read1 ?? '')).toContain('line 400:');
    expect(afterFailed?.outputs.get(bad ?? '')).toContain('Failed to edit');
    expect(afterFailed?.outputs.get(read1 ?? '')).toBe(first?.outputs.get(read1 ?? ''));
    expect(afterApplied?.outputs.get(read1 ?? '')).toMatch(POINTER);
    expect(last?.outputs.get(read1 ?? '')).toBe(afterApplied?.outputs.get(read1 ?? ''));
    expect(last?.outputs.get(read2 ?? '')).toContain('line 7: edited');
    expect(last?.outputs.get(read2 ?? '')).toContain('line 400:');
  });

  it('#24.3 the newest result always reaches the upstream intact, and every request is understood', async () => {
    for (const body of upstream.bodies.slice(1).map(toolOutputs)) {
      expect(body.outputs.get(body.newest ?? '')).not.toMatch(POINTER);
    }
    const served = (await (await fetch(`${proxy.url}/dense/stats`)).json()) as StatsJson;
    const stats = served.recent.filter((entry) => entry.route === 'openai-chat');
    expect(stats).toHaveLength(script.length + 1);
    expect(stats.every((entry) => entry.unsupported === undefined)).toBe(true);
    expect(stats.at(-1)?.pointers).toBe(1);
  });
});
