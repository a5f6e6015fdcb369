import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { defaultTokenFile, FileTokenStore } from '@dense/core';
import { describe, expect, it } from 'vitest';
import { captureIO } from '../test-utils/captureIO.js';
import { parseProxyArgs, proxyCommand, runProxy } from './proxy.js';

describe('dense proxy (command)', () => {
  it('#15.1 defaults to 127.0.0.1 and the public APIs; NO_COLOR turns colour off', () => {
    expect(parseProxyArgs({}, {})).toMatchObject({
      host: '127.0.0.1',
      port: 8787,
      anthropicUpstream: 'https://api.anthropic.com',
      openaiUpstream: 'https://api.openai.com',
      color: true,
    });
    expect(parseProxyArgs({}, { NO_COLOR: '1' }).color).toBe(false);
  });

  it('#24.1 --working-budget takes tokens, auto or off (flag over DENSE_WORKING_BUDGET); --no-answer-compaction', async () => {
    expect(parseProxyArgs({}, {})).toMatchObject({
      workingBudget: undefined,
      answerCompaction: true,
    });
    expect(parseProxyArgs({ 'working-budget': '90000' }, {}).workingBudget).toBe(90_000);
    expect(parseProxyArgs({ 'working-budget': 'off' }, {}).workingBudget).toBe('off');
    expect(parseProxyArgs({}, { DENSE_WORKING_BUDGET: '120000' }).workingBudget).toBe(120_000);
    expect(
      parseProxyArgs({ 'working-budget': 'auto' }, { DENSE_WORKING_BUDGET: 'off' }).workingBudget,
    ).toBeUndefined();
    expect(parseProxyArgs({ 'answer-compaction': false }, {}).answerCompaction).toBe(false);
    expect(parseProxyArgs({}, {})).toMatchObject({
      entryReplies: true,
      repeatedLinesReplies: true,
    });
    expect(parseProxyArgs({ 'entry-replies': false, 'repeated-lines': false }, {})).toMatchObject({
      entryReplies: false,
      repeatedLinesReplies: false,
    });
    const { io, out } = captureIO('/');
    expect(await proxyCommand.run({ 'working-budget': 'lots' }, io)).toBe(2);
    expect(out.stderr).toContain("--working-budget must be 'auto', 'off' or a whole number");
  });

  it('#15.6 a bad upstream or port is a one-line usage error (exit 2)', async () => {
    const { io, out } = captureIO('/');
    expect(await proxyCommand.run({ 'anthropic-upstream': 'ftp://x' }, io)).toBe(2);
    expect(out.stderr).toBe(
      "dense proxy: --anthropic-upstream must be an http(s) URL, got 'ftp://x'.\n",
    );
    expect(await proxyCommand.run({ port: 70000 }, io)).toBe(2);
  });

  it('#15.1 #36.4 prints the env var to use; on a non-loopback host every request needs a token; summary at exit', async () => {
    const upstream = createServer((_, res) =>
      res.end('{"usage":{"input_tokens":3,"output_tokens":2}}'),
    );
    await new Promise<void>((done) => upstream.listen(0, '127.0.0.1', done));
    const upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    const home = await mkdtemp(path.join(tmpdir(), 'dense-proxy-home-'));
    const env = { DENSE_HOME: home };
    const { token } = await new FileTokenStore({ file: defaultTokenFile(env) }).create('ana');
    const { io, out } = captureIO('/', env);
    let stop: () => void = () => undefined;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    const running = runProxy(
      { host: '0.0.0.0', port: 0, anthropicUpstream: upstreamUrl },
      io,
      stopped,
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const url = /listening on (\S+)/.exec(out.stdout)?.[1]?.replace('0.0.0.0', '127.0.0.1');
    const body = '{"model":"m","messages":[{"role":"user","content":"hi"}]}';
    const refused = await fetch(`${url}/v1/messages`, { method: 'POST', body });
    expect(refused.status).toBe(401);
    const reply = await fetch(`${url}/v1/messages`, {
      method: 'POST',
      body,
      headers: { 'x-dense-token': token },
    });
    expect(await reply.text()).toContain('input_tokens');
    stop();
    expect(await running).toBe(0);
    upstream.close();
    await rm(home, { recursive: true, force: true });
    expect(out.stdout).toContain('ANTHROPIC_BASE_URL=');
    expect(out.stderr).toContain('listening on 0.0.0.0: every request needs a Dense token');
    expect(out.stderr).toMatch(/dense proxy 200 anthropic .*in 3 .* out 2/);
    expect(out.stderr).toMatch(/requests\s+1/);
  });

  it('#22.13 the banner gives Codex a line it reads: a model provider, not OPENAI_BASE_URL', async () => {
    const { io, out } = captureIO('/');
    expect(await runProxy({ port: 0 }, io, Promise.resolve())).toBe(0);
    const url = /listening on (\S+)/.exec(out.stdout)?.[1] ?? '';
    const codex = out.stdout.split('\n').find((line) => line.trimStart().startsWith('Codex:'));
    expect(codex).not.toContain('OPENAI_BASE_URL');
    expect(codex).toContain(
      `codex -c model_provider=dense -c 'model_providers.dense={name="dense",base_url="${url}/v1",env_key="OPENAI_API_KEY",wire_api="responses"}'`,
    );
  });
});
