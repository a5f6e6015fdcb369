/**
 * `dense statusline` end to end: the built `dense` executable, given Claude Code's status line
 * JSON on stdin, against a real proxy (`startProxyServer`) on loopback in front of a scripted
 * upstream. The session's requests carry `x-claude-code-session-id` as Claude Code's do; the
 * upstream reports the prompt it received at characters / 4.
 */
import { spawn } from 'node:child_process';
import { createServer, request, type Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTokenStore, RecallArchive, startProxyServer, type ProxyServer } from '@dense/core';
import { DENSE_BIN, ensureBuilt } from '../test-utils/builtBinary.js';

const notBuilt = await ensureBuilt();

const SESSION = '3f5b8c1d-2e4a-4b6c-8d9e-0a1b2c3d4e5f';

/** An invented Claude Code-shaped session: a task, then `rounds` Reads of distinct files. */
function sessionBody(rounds: number, resultChars: number, system: string): string {
  const messages: unknown[] = [{ role: 'user', content: [{ type: 'text', text: 'Tidy src/.' }] }];
  for (let round = 0; round < rounds; round++) {
    const line = `${round}: export const item${round} = build(${round});\n`;
    messages.push(
      {
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: `r${round}`,
            name: 'Read',
            input: { file_path: `/p/f${round}.ts` },
          },
        ],
      },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: `r${round}`,
            content: line.repeat(Math.ceil(resultChars / line.length)).slice(0, resultChars),
          },
        ],
      },
    );
  }
  return JSON.stringify({
    model: 'claude-sonnet-4-6',
    system: [{ type: 'text', text: system }],
    tools: [{ name: 'Read', input_schema: { type: 'object' } }],
    max_tokens: 1000,
    messages,
  });
}

function post(base: string, body: string, extra: Record<string, string> = {}): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/v1/messages', base), {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'anthropic-version': '2023-06-01',
        'x-claude-code-session-id': SESSION,
        ...extra,
      },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The built `dense statusline` with `stdin`; its stdout, exit code and wall time. */
function statusline(stdin: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ out: string; code: number | null; ms: number }>((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [DENSE_BIN, 'statusline'], {
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('close', (code) => resolve({ out, code, ms: performance.now() - started }));
    child.stdin.end(stdin);
  });
}

/** docs/proxy.md's curl status line command (through `sh -c`, as Claude Code runs it). */
function curlStatusline(stdin: string, base: string) {
  return new Promise<{ out: string; code: number | null }>((resolve) => {
    const command = `curl -sf -m 1 --data-binary @- ${base}/dense/statusline || true`;
    const child = spawn('sh', ['-c', command], { env: { PATH: process.env.PATH ?? '' } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('close', (code) => resolve({ out, code }));
    child.stdin.end(stdin);
  });
}

/** What Claude Code 2.1.331 writes on a status line command's stdin (its documented fields). */
const claudeCodeInput = (sessionId: string) =>
  JSON.stringify({
    session_id: sessionId,
    transcript_path: `/home/u/.claude/projects/-w/${sessionId}.jsonl`,
    cwd: '/w',
    model: { id: 'claude-sonnet-4-6', display_name: 'Sonnet 4.6' },
    workspace: { current_dir: '/w', project_dir: '/w', added_dirs: [] },
    version: '2.1.331',
    output_style: { name: 'default' },
    context_window: { total_input_tokens: 41_000, context_window_size: 200_000 },
  });

describe.skipIf(notBuilt !== undefined)(
  `dense statusline against a running proxy${notBuilt === undefined ? '' : ` (skipped: ${notBuilt})`}`,
  () => {
    let upstream: Server;
    let proxy: ProxyServer;
    let recallDir: string;
    let upstreamUrl: string;

    beforeAll(async () => {
      upstream = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          const tokens = Math.round(Buffer.concat(chunks).length / 4);
          res.setHeader('content-type', 'application/json');
          res.end(
            JSON.stringify({
              type: 'message',
              role: 'assistant',
              content: [{ type: 'text', text: 'ok' }],
              usage: { input_tokens: tokens, output_tokens: 10 },
            }),
          );
        });
      });
      await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
      upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
      recallDir = await mkdtemp(path.join(tmpdir(), 'dense-statusline-e2e-'));
      proxy = await startProxyServer({
        anthropicUpstream: upstreamUrl,
        openaiUpstream: upstreamUrl,
        recall: new RecallArchive({ dir: recallDir }),
        log: () => undefined,
      });
      // The main conversation (~180k tokens as the client holds it, over the working budget),
      // after a small side request of the same session with its own system prompt.
      expect(await post(proxy.url, sessionBody(1, 400, 'Write a short title.'))).toBe(200);
      expect(await post(proxy.url, sessionBody(60, 12_000, 'You are a coding agent.'))).toBe(200);
    });

    afterAll(async () => {
      await proxy.close();
      upstream.closeAllConnections();
      await new Promise((done) => upstream.close(done));
      await rm(recallDir, { recursive: true, force: true });
    });

    it('#37.2 prints the session line the proxy renders at POST /dense/statusline (DENSE_PROXY_URL, then a loopback ANTHROPIC_BASE_URL)', async () => {
      const byDense = await statusline(claudeCodeInput(SESSION), { DENSE_PROXY_URL: proxy.url });
      expect(byDense.code).toBe(0);
      expect(byDense.out).toMatch(
        /^dense ▸ \d+k upstream \/ 1[6-9]\dk held · saved \d+% · 1 compaction avoided\n$/,
      );
      const upstreamK = Number(/▸ (\d+)k upstream/.exec(byDense.out)?.[1]);
      expect(upstreamK).toBeLessThan(167);
      const byBase = await statusline(claudeCodeInput(SESSION), { ANTHROPIC_BASE_URL: proxy.url });
      expect(byBase.out).toBe(byDense.out);
    });

    it("#37.2 #36.4 on a gateway the line is the token user's own (token from ANTHROPIC_CUSTOM_HEADERS); another user's token prints nothing", async () => {
      const tokens = new FileTokenStore({ file: path.join(recallDir, 'tokens.json') });
      const ana = (await tokens.create('ana')).token;
      const bo = (await tokens.create('bo')).token;
      const gateway = await startProxyServer({
        anthropicUpstream: upstreamUrl,
        openaiUpstream: upstreamUrl,
        recall: new RecallArchive({ dir: path.join(recallDir, 'gateway') }),
        tokens,
        log: () => undefined,
      });
      try {
        const body = sessionBody(60, 12_000, 'You are a coding agent.');
        expect(await post(gateway.url, body, { 'x-dense-token': ana })).toBe(200);
        const headers = (token: string) => `x-other: 1\nx-dense-token: ${token}`;
        const own = await statusline(claudeCodeInput(SESSION), {
          ANTHROPIC_BASE_URL: gateway.url,
          ANTHROPIC_CUSTOM_HEADERS: headers(ana),
        });
        expect(own.out).toMatch(/^dense ▸ \d+k upstream \/ 1[6-9]\dk held/);
        const other = await statusline(claudeCodeInput(SESSION), {
          ANTHROPIC_BASE_URL: gateway.url,
          ANTHROPIC_CUSTOM_HEADERS: headers(bo),
        });
        expect(other).toMatchObject({ out: '', code: 0 });
      } finally {
        await gateway.close();
      }
    });

    it('#37.2 the documented curl command (real curl) prints the same line, and nothing for an unknown session', async () => {
      const byDense = await statusline(claudeCodeInput(SESSION), { DENSE_PROXY_URL: proxy.url });
      const byCurl = await curlStatusline(claudeCodeInput(SESSION), proxy.url);
      expect(byCurl).toMatchObject({ out: byDense.out, code: 0 });
      const unknown = await curlStatusline(
        claudeCodeInput('aaaaaaaa-0000-4000-8000-000000000000'),
        proxy.url,
      );
      expect(unknown).toMatchObject({ out: '', code: 0 });
    });

    it('#37.2 an unknown session prints nothing and exits 0', async () => {
      const other = await statusline(claudeCodeInput('aaaaaaaa-0000-4000-8000-000000000000'), {
        DENSE_PROXY_URL: proxy.url,
      });
      expect(other).toMatchObject({ out: '', code: 0 });
    });

    it('#37.2 with no proxy running it prints nothing and exits 0', async () => {
      const closed = createServer();
      await new Promise<void>((done) => closed.listen(0, '127.0.0.1', done));
      const { port } = closed.address() as AddressInfo;
      await new Promise((done) => closed.close(done));
      const none = await statusline(claudeCodeInput(SESSION), {
        DENSE_PROXY_URL: `http://127.0.0.1:${port}`,
      });
      expect(none).toMatchObject({ out: '', code: 0 });
    });
  },
);
