/**
 * Issue #15: the real Codex CLI (pinned) runs `codex exec` against `dense proxy` (as a custom model
 * provider: this Codex version ignores OPENAI_BASE_URL) with an upstream that answers in the
 * Responses streaming format. Codex 0.169 orchestrates tools through its own `exec` (JavaScript)
 * tool, which density does not interpret, so the proof here is fidelity: Codex gets the answer and
 * every request reaches the upstream exactly as Codex sent it.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecallArchive, startProxyServer, type ProxyServer } from '@dense/core';
import { CODEX_VERSION, installCodex } from '../test-utils/installAgentCli.js';

const install = await installCodex();
const skipReason = install.kind === 'unavailable' ? install.reason : undefined;
const title =
  skipReason === undefined
    ? `dense proxy with the real Codex ${CODEX_VERSION}`
    : `dense proxy with the real Codex (skipped: @openai/codex could not be installed: ${skipReason})`;

const ANSWER = 'DENSE-CODEX-DONE';

function responsesStream(): string {
  const item = {
    type: 'message',
    id: 'msg_1',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: ANSWER, annotations: [] }],
  };
  const usage = {
    input_tokens: 900,
    input_tokens_details: { cached_tokens: 800 },
    output_tokens: 3,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 903,
  };
  const events = [
    { type: 'response.created', response: { id: 'resp_1', status: 'in_progress', output: [] } },
    { type: 'response.output_item.done', output_index: 0, item },
    {
      type: 'response.completed',
      response: { id: 'resp_1', status: 'completed', output: [item], usage },
    },
  ];
  return events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
}

describe.skipIf(skipReason !== undefined)(title, () => {
  let base: string;
  let upstream: Server;
  let proxy: ProxyServer;
  const received: string[] = [];
  let result: { code: number; stdout: string };

  beforeAll(async () => {
    base = await mkdtemp(path.join(tmpdir(), 'dense-proxy-codex-'));
    const home = path.join(base, 'home');
    await mkdir(path.join(home, '.codex'), { recursive: true });
    await mkdir(path.join(base, 'ws'));
    upstream = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (!(request.url ?? '').endsWith('/responses')) {
          response.writeHead(404);
          response.end('{}');
          return;
        }
        received.push(Buffer.concat(chunks).toString('utf8'));
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(responsesStream());
      });
    });
    await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    proxy = await startProxyServer({
      openaiUpstream: upstreamUrl,
      recordDir: path.join(base, 'record'),
      recall: new RecallArchive({ dir: path.join(base, 'recall') }),
    });
    const provider = `model_providers.dense={name="dense",base_url="${proxy.url}/v1",env_key="OPENAI_API_KEY",wire_api="responses"}`;
    const [file = '', ...prefix] = install.kind === 'installed' ? install.command : [];
    const args = [
      ...prefix,
      'exec',
      '--skip-git-repo-check',
      '-c',
      'model_provider=dense',
      '-c',
      provider,
      'Say done.',
    ];
    const env = {
      PATH: process.env.PATH,
      HOME: home,
      CODEX_HOME: path.join(home, '.codex'),
      OPENAI_API_KEY: 'dummy',
    };
    result = await new Promise((resolve) => {
      const child = execFile(
        file,
        args,
        { cwd: path.join(base, 'ws'), env, timeout: 120_000 },
        (error, stdout) => resolve({ code: error ? (child.exitCode ?? 1) : 0, stdout }),
      );
      child.stdin?.end();
    });
  }, 300_000);

  afterAll(async () => {
    await proxy?.close();
    await new Promise((done) => upstream?.close(done));
    if (base !== undefined) await rm(base, { recursive: true, force: true });
  });

  it('#15 Codex exits 0 with the scripted answer through the proxy', () => {
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(ANSWER);
    expect(received.length).toBeGreaterThan(0);
  });

  it('#15 every Codex request is understood and reaches the upstream byte-identical', async () => {
    const dir = path.join(base, 'record');
    const files = (await readdir(dir)).sort();
    const records = await Promise.all(
      files.map(async (file) => JSON.parse(await readFile(path.join(dir, file), 'utf8')) as Json),
    );
    const chat = records.filter((record) => String(record.url).endsWith('/responses'));
    expect(chat.map((record) => record.body)).toEqual(received);
    expect(chat.every((record) => record.forwarded === '(unchanged)')).toBe(true);
    expect(JSON.stringify(records)).not.toContain('Bearer dummy');
    const stats = proxy.stats.toJSON().recent.filter((entry) => entry.route === 'openai-responses');
    expect(stats.every((entry) => entry.unsupported === undefined)).toBe(true);
    expect(stats.some((entry) => entry.usage?.cacheRead === 800)).toBe(true);
  });
});

type Json = Record<string, unknown>;
