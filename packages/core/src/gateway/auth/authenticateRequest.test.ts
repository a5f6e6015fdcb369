import { mkdtemp, rm } from 'node:fs/promises';
import type * as http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { authenticateRequest, splitTokenPath, type AuthOutcome } from './authenticateRequest.js';
import { FileTokenStore } from './FileTokenStore.js';
import type { TokenStore } from './TokenStore.js';
import { newTokenSecret } from './tokenSecret.js';

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function storeWithAda(): Promise<{ store: TokenStore; token: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'dense-auth-'));
  dirs.push(dir);
  const store = new FileTokenStore({ file: path.join(dir, 'tokens.json') });
  const { token } = await store.create('ada');
  return { store, token };
}

const ANTHROPIC = { 'anthropic-version': '2023-06-01', 'x-api-key': 'sk-ant-provider-key' };
const OPENAI = { authorization: 'Bearer sk-openai-provider-key' };

function refusal(outcome: AuthOutcome): { status: number; reason: string; message: string } {
  if (outcome.kind !== 'refused') throw new Error(`allowed: ${JSON.stringify(outcome)}`);
  return { status: outcome.status, reason: outcome.reason, message: outcome.body.error.message };
}

describe('authenticateRequest', () => {
  it('#36.4 the x-dense-token header names the user; the target is unchanged', async () => {
    const { store, token } = await storeWithAda();
    const headers: http.IncomingHttpHeaders = { ...ANTHROPIC, 'x-dense-token': token };
    expect(
      await authenticateRequest({ headers, url: '/v1/messages?beta=true', store, required: true }),
    ).toEqual({ kind: 'allowed', user: 'ada', url: '/v1/messages?beta=true' });
  });

  it('#36.4 the /t/<token> path prefix names the user and is removed from the target', async () => {
    const { store, token } = await storeWithAda();
    for (const [url, rest] of [
      [`/t/${token}/v1/messages?beta=true`, '/v1/messages?beta=true'],
      [`/t/${token}/v1/responses`, '/v1/responses'],
      [`/t/${token}`, '/'],
      [`/t/${token}?x=1`, '/?x=1'],
    ] as const) {
      expect(await authenticateRequest({ headers: OPENAI, url, store, required: true })).toEqual({
        kind: 'allowed',
        user: 'ada',
        url: rest,
      });
    }
  });

  it('#36.4 Authorization: Bearer dense_… is read on Anthropic routes (the key is in x-api-key)', async () => {
    const { store, token } = await storeWithAda();
    const headers = { ...ANTHROPIC, authorization: `Bearer ${token}` };
    const outcome = await authenticateRequest({
      headers,
      url: '/v1/messages',
      store,
      required: true,
    });
    expect(outcome).toEqual({ kind: 'allowed', user: 'ada', url: '/v1/messages' });
  });

  it("#36.4 on OpenAI routes Authorization is the provider's: a provider key is left alone", async () => {
    const { store, token } = await storeWithAda();
    const headers = { ...OPENAI, 'x-dense-token': token };
    expect(
      await authenticateRequest({ headers, url: '/v1/chat/completions', store, required: true }),
    ).toMatchObject({ kind: 'allowed', user: 'ada' });
    // The provider key alone is not a Dense token: refused as missing, never looked up.
    expect(
      refusal(
        await authenticateRequest({ headers: OPENAI, url: '/v1/responses', store, required: true }),
      ),
    ).toMatchObject({ status: 401, reason: 'missing' });
  });

  it('#36.4 a Dense token in Authorization on an OpenAI route is refused, not forwarded', async () => {
    const { store, token } = await storeWithAda();
    const headers = { authorization: `Bearer ${token}` };
    const outcome = refusal(
      await authenticateRequest({ headers, url: '/v1/responses', store, required: false }),
    );
    expect(outcome).toMatchObject({ status: 401, reason: 'authorization-on-openai' });
    expect(outcome.message).toContain('x-dense-token');
  });

  it('#36.4 no token: refused where required, with a body saying how to send one', async () => {
    const { store } = await storeWithAda();
    const outcome = await authenticateRequest({
      headers: ANTHROPIC,
      url: '/v1/messages',
      store,
      required: true,
    });
    expect(outcome).toMatchObject({
      kind: 'refused',
      status: 401,
      reason: 'missing',
      body: { type: 'error', error: { type: 'authentication_error' } },
    });
    const { message } = refusal(outcome);
    for (const part of [
      'x-dense-token',
      'ANTHROPIC_CUSTOM_HEADERS',
      'env_http_headers',
      'customHeaders',
      '/t/<token>',
    ]) {
      expect(message).toContain(part);
    }
  });

  it('#36.4 no token on loopback (not required): allowed, no user', async () => {
    const { store } = await storeWithAda();
    expect(
      await authenticateRequest({
        headers: ANTHROPIC,
        url: '/v1/messages',
        store,
        required: false,
      }),
    ).toEqual({ kind: 'allowed', user: undefined, url: '/v1/messages' });
  });

  it('#36.4 a wrong token is refused, even where tokens are optional; it is never echoed', async () => {
    const { store } = await storeWithAda();
    const wrong = newTokenSecret();
    for (const required of [true, false]) {
      for (const [headers, url] of [
        [{ ...ANTHROPIC, 'x-dense-token': wrong }, '/v1/messages'],
        [ANTHROPIC, `/t/${wrong}/v1/messages`],
        [{ ...ANTHROPIC, 'x-dense-token': 'garbage' }, '/v1/messages'],
      ] as const) {
        const outcome = refusal(await authenticateRequest({ headers, url, store, required }));
        expect(outcome).toMatchObject({ status: 401, reason: 'unknown' });
        expect(outcome.message).not.toContain(wrong);
      }
    }
  });

  it('#36.4 a revoked token is refused', async () => {
    const { store, token } = await storeWithAda();
    await store.revoke('ada');
    const headers = { ...ANTHROPIC, 'x-dense-token': token };
    expect(
      refusal(await authenticateRequest({ headers, url: '/v1/messages', store, required: true })),
    ).toMatchObject({ status: 401, reason: 'unknown' });
  });

  it('#36.4 two different tokens in one request are refused; the same one twice is fine', async () => {
    const { store, token } = await storeWithAda();
    const other = (await store.create('bob')).token;
    const headers = { ...ANTHROPIC, 'x-dense-token': token };
    expect(
      refusal(
        await authenticateRequest({
          headers,
          url: `/t/${other}/v1/messages`,
          store,
          required: true,
        }),
      ),
    ).toMatchObject({ reason: 'conflicting' });
    expect(
      await authenticateRequest({ headers, url: `/t/${token}/v1/messages`, store, required: true }),
    ).toMatchObject({ kind: 'allowed', user: 'ada', url: '/v1/messages' });
  });

  it('#36.4 a store that fails or does not answer in time refuses with 503 (never fails open)', async () => {
    const failing: TokenStore = {
      create: () => Promise.reject(new Error('unused')),
      list: () => Promise.resolve([]),
      revoke: () => Promise.resolve([]),
      userOf: () => Promise.reject(new Error('connection lost')),
    };
    const silent: TokenStore = { ...failing, userOf: () => new Promise(() => undefined) };
    const headers = { ...ANTHROPIC, 'x-dense-token': newTokenSecret() };
    const failed = await authenticateRequest({
      headers,
      url: '/v1/messages',
      store: failing,
      required: false,
    });
    expect(failed).toMatchObject({
      kind: 'refused',
      status: 503,
      reason: 'store-unavailable',
      detail: 'connection lost',
    });
    const late = await authenticateRequest({
      ...{ headers, url: '/v1/messages', store: silent },
      ...{ required: false, timeoutMs: 20 },
    });
    expect(late).toMatchObject({ kind: 'refused', status: 503, detail: 'no answer in 20 ms' });
  });
});

describe('splitTokenPath', () => {
  it('#36.4 only a leading /t/ segment is a token; other paths are kept whole', () => {
    expect(splitTokenPath('/v1/t/abc/messages')).toEqual({
      token: undefined,
      url: '/v1/t/abc/messages',
    });
    expect(splitTokenPath('/t/abc/v1/x')).toEqual({ token: 'abc', url: '/v1/x' });
    expect(splitTokenPath('/t//v1/x')).toEqual({ token: '', url: '/v1/x' });
  });
});
