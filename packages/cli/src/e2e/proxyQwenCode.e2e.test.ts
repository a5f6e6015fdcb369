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
import { agentSuite, NOTES_TEXT, POINTER_VALUE } from '../test-utils/agentSuite.js';
import { installQwenCode, QWEN_CODE_VERSION } from '../test-utils/installAgentCli.js';
import {
  runQwenCode,
  startChatUpstream,
  type ChatToolStep,
  type ChatUpstream,
  type QwenCodeRun,
} from '../test-utils/qwenCodeUpstream.js';

const { command, skipReason, title } = await agentSuite({
  name: 'dense proxy',
  agent: 'Qwen Code',
  version: QWEN_CODE_VERSION,
  packageName: '@qwen-code/qwen-code',
  install: installQwenCode,
});

const ANSWER = 'DENSE-QWEN-DONE: line 7 is edited.';

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

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'dense-proxy-qwen-'));
    const workspace = path.join(base, 'ws');
    await mkdir(workspace);
    const notes = path.join(workspace, 'notes.txt');
    await writeFile(notes, NOTES_TEXT);
    script = steps(notes);
    upstream = await startChatUpstream({ steps: script, answer: ANSWER });
    proxy = await startProxyServer({
      openaiUpstream: upstream.url,
      recall: new RecallArchive({ dir: path.join(base, 'recall') }),
    });
    result = await runQwenCode({
      command,
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
    expect(afterApplied?.outputs.get(read1 ?? '')).toMatch(POINTER_VALUE);
    expect(last?.outputs.get(read1 ?? '')).toBe(afterApplied?.outputs.get(read1 ?? ''));
    expect(last?.outputs.get(read2 ?? '')).toContain('line 7: edited');
    expect(last?.outputs.get(read2 ?? '')).toContain('line 400:');
  });

  it('#24.3 the newest result always reaches the upstream intact, and every request is understood', async () => {
    for (const body of upstream.bodies.slice(1).map(toolOutputs)) {
      expect(body.outputs.get(body.newest ?? '')).not.toMatch(POINTER_VALUE);
    }
    const served = (await (await fetch(`${proxy.url}/dense/stats`)).json()) as StatsJson;
    const stats = served.recent.filter((entry) => entry.route === 'openai-chat');
    expect(stats).toHaveLength(script.length + 1);
    expect(stats.every((entry) => entry.unsupported === undefined)).toBe(true);
    expect(stats.at(-1)?.pointers).toBe(1);
  });
});
