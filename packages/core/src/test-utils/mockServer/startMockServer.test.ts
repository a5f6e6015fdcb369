import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { mockScriptSchema } from './mockScript.js';
import { startMockServer, type MockServer } from './startMockServer.js';

let server: MockServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

describe('startMockServer', () => {
  it('listens on an ephemeral loopback port and gives each SDK its base URL', async () => {
    server = await startMockServer();
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.port).toBeGreaterThan(0);
    expect(server.baseUrlFor('openai')).toBe(`${server.url}/v1`);
    expect(server.baseUrlFor('anthropic')).toBe(server.url);
    expect(server.baseUrlFor('gemini')).toBe(server.url);
  });

  it('records path, query, headers and parsed body, without any credential', async () => {
    server = await startMockServer({ script: [{ kind: 'stream', text: 'x' }] });
    await (
      await post(
        `${server.url}/v1/chat/completions`,
        { model: 'm', messages: [] },
        { authorization: 'Bearer s3cret', 'x-extra': '1' },
      )
    ).text();
    const [request] = server.requests;
    expect(request).toMatchObject({
      provider: 'openai',
      method: 'POST',
      path: '/v1/chat/completions',
      authPresent: true,
      body: { model: 'm', messages: [] },
    });
    expect(request?.headers['x-extra']).toBe('1');
    expect(JSON.stringify(server.requests)).not.toContain('s3cret');
  });

  it('hides a Gemini key passed in the query string', async () => {
    server = await startMockServer({ script: [{ kind: 'stream', text: 'x' }] });
    await (
      await post(`${server.url}/v1beta/models/gemini-x:streamGenerateContent?alt=sse&key=s3cret`, {
        contents: [],
      })
    ).text();
    expect(server.requests[0]).toMatchObject({
      provider: 'gemini',
      query: { alt: 'sse' },
      authPresent: true,
    });
    expect(JSON.stringify(server.requests)).not.toContain('s3cret');
  });

  it('serves Anthropic events with their event names, and a Gemini JSON array without alt=sse', async () => {
    server = await startMockServer({
      script: [
        { kind: 'stream', text: 'hi' },
        { kind: 'stream', text: ['a', 'b'] },
      ],
    });
    const sse = await (await post(`${server.url}/v1/messages`, { model: 'claude-x' })).text();
    expect(sse).toContain('event: message_start');
    expect(sse).toContain('"text":"hi"');
    expect(sse.trim().endsWith('data: {"type":"message_stop"}')).toBe(true);
    const array = (await (
      await post(`${server.url}/v1beta/models/g:streamGenerateContent`, {})
    ).json()) as unknown[];
    expect(Array.isArray(array)).toBe(true);
    expect(JSON.stringify(array)).toContain('"finishReason":"STOP"');
  });

  it('answers HTTP errors with the given status, headers and an API-shaped body', async () => {
    server = await startMockServer({
      script: [
        { kind: 'http-error', status: 429, message: 'slow', headers: { 'retry-after': '2' } },
      ],
    });
    const response = await post(`${server.url}/v1/messages`, {});
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('2');
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: 'slow' },
    });
  });

  it('answers 404 for unknown routes and 400 once the script is exhausted (or serves the fallback)', async () => {
    server = await startMockServer();
    expect((await post(`${server.url}/v1/embeddings`, {})).status).toBe(404);
    const exhausted = await post(`${server.url}/v1/chat/completions`, {});
    expect(exhausted.status).toBe(400);
    expect(await exhausted.text()).toContain('script exhausted');
    await server.close();
    server = await startMockServer({ fallback: { kind: 'stream', text: 'again' } });
    for (let i = 0; i < 2; i++)
      expect(await (await post(`${server.url}/v1/chat/completions`, {})).text()).toContain('again');
  });

  it('rejects an invalid reply when it is scripted, not when it is served', async () => {
    await expect(
      startMockServer({ script: [{ kind: 'stream', text: 3 } as never] }),
    ).rejects.toThrow();
    server = await startMockServer();
    expect(() => server!.enqueue({ kind: 'http-error', status: 200 } as never)).toThrow();
  });

  it('#24.5 reports cache writes on Anthropic and answers the Responses API with its usage', async () => {
    const usage = {
      promptTokens: 100,
      completionTokens: 5,
      cachedTokens: 60,
      cacheWriteTokens: 30,
    };
    server = await startMockServer({
      script: [
        { kind: 'stream', text: 'a', usage },
        { kind: 'stream', text: 'b', toolCalls: [{ id: 'c1', name: 'ls', arguments: {} }], usage },
      ],
    });
    const anthropic = await (await post(`${server.url}/v1/messages`, { model: 'm' })).text();
    expect(anthropic).toContain('"input_tokens":10,');
    expect(anthropic).toContain('"cache_creation_input_tokens":30');
    expect(anthropic).toContain('"cache_read_input_tokens":60');
    const responses = await (await post(`${server.url}/v1/responses`, { model: 'm' })).text();
    expect(responses).toContain('event: response.output_item.done');
    expect(responses).toContain('"call_id":"c1"');
    expect(responses).toMatch(
      /"usage":\{"input_tokens":100,"input_tokens_details":\{"cached_tokens":60\}/,
    );
  });

  it('close() ends held-open streams', async () => {
    server = await startMockServer({ script: [{ kind: 'stream', text: 'wait', ending: 'hold' }] });
    const response = await post(`${server.url}/v1/chat/completions`, {});
    const reading = response.text().catch((e: unknown) => e);
    await server.close();
    server = undefined;
    expect(await reading).toBeInstanceOf(Error);
  });
});

describe('mockScriptSchema', () => {
  it('accepts the documented file format', () => {
    const parsed = mockScriptSchema.parse({
      replies: [
        { kind: 'stream', text: 'one', usage: { promptTokens: 1, completionTokens: 1 } },
        {
          kind: 'stream',
          toolCalls: [{ name: 'ls', arguments: { path: '.' } }],
          ending: 'complete',
        },
        { kind: 'http-error', status: 503 },
      ],
      fallback: { kind: 'stream', text: ['a', 'b'] },
    });
    expect(parsed.replies[0]).toMatchObject({ text: ['one'] });
  });
});

describe('standalone mock server (cli.ts)', () => {
  it('prints its URL and serves the scripted replies', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dense-mock-'));
    const scriptFile = path.join(dir, 'script.json');
    writeFileSync(
      scriptFile,
      JSON.stringify({ replies: [{ kind: 'stream', text: ['from ', 'file'] }] }),
    );
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', cli, '--port', '0', '--script', scriptFile],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    try {
      const url = await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`cli exited with ${code}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const body = await (await post(`${url}/v1/chat/completions`, { model: 'm' })).text();
      expect(body).toContain('"content":"from "');
      expect(body).toContain('data: [DONE]');
    } finally {
      child.kill('SIGTERM');
    }
  }, 20_000);

  it('exits with status 2 and a message naming the problem for a bad script', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'dense-mock-'));
    const scriptFile = path.join(dir, 'bad.json');
    writeFileSync(scriptFile, JSON.stringify({ replies: [{ kind: 'teleport' }] }));
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
    const child = spawn(process.execPath, ['--import', 'tsx', cli, '--script', scriptFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('is invalid');
  }, 20_000);
});
