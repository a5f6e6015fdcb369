import { afterEach, describe, expect, it } from 'vitest';
import { compactionRequestBody, longSessionBody } from '../test-utils/longSession.js';
import { closeLoopback, proxyTo, send, stub } from '../test-utils/loopbackProxy.js';
import type { ProxyStatsJson } from '../meter/proxyStats.js';
import { defaultWorkingBudget } from '../budget/workingBudget.js';
import { chatBody, chatTurn } from '../test-utils/wireRequests.js';
import { qwenCompactionRequestBody } from '../test-utils/qwenSession.js';

afterEach(closeLoopback);

describe('dense proxy: working budget and client compaction', () => {
  it("#24.1 the client's compaction request is answered by Dense and never reaches the upstream", async () => {
    const upstream = await stub((_, res) => res.end('{}'));
    const proxy = await proxyTo(upstream.url);
    const reply = await send(proxy.url, { path: '/v1/messages', body: compactionRequestBody() });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/event-stream');
    expect(reply.chunks.join('')).toContain('<summary>');
    expect(upstream.seen).toHaveLength(0);
    expect(proxy.lines.at(-1)).toContain('client compaction answered by Dense');
    expect(proxy.stats.toJSON().recent.at(-1)?.compaction?.kind).toBe('answered');
    const ids = [...reply.chunks.join('').matchAll(/recall id (r[0-9a-f]{10})/g)];
    expect(ids.length).toBeGreaterThan(0);
    for (const [, id] of ids) expect((await proxy.recall.lookup(id ?? '')).kind).toBe('found');
  });

  it('#24.1 with answerCompaction off the compaction request is forwarded', async () => {
    const upstream = await stub((_, res) => res.end('{}'));
    const proxy = await proxyTo(upstream.url, { answerCompaction: false });
    await send(proxy.url, { path: '/v1/messages', body: compactionRequestBody() });
    expect(upstream.seen).toHaveLength(1);
  });

  it("#24.1 Qwen Code's compaction request on the Chat Completions route is answered by Dense, and forwarded with answerCompaction off", async () => {
    const upstream = await stub((_, res) => res.end('{}'));
    const proxy = await proxyTo(upstream.url);
    const path = '/v1/chat/completions';
    const reply = await send(proxy.url, { path, body: qwenCompactionRequestBody() });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('text/event-stream');
    expect(reply.chunks.join('')).toContain('<state_snapshot>');
    expect(upstream.seen).toHaveLength(0);
    expect(proxy.lines.at(-1)).toContain('client compaction answered by Dense (13 msgs');
    const off = await proxyTo(upstream.url, { answerCompaction: false });
    await send(off.url, { path, body: qwenCompactionRequestBody() });
    expect(upstream.seen).toHaveLength(1);
  });

  it('#24.1 a request over the working budget goes upstream compacted, and the line says so', async () => {
    const upstream = await stub((_, res) => res.end('{}'));
    const proxy = await proxyTo(upstream.url, { workingBudget: 20_000 });
    const body = longSessionBody(30, 4_000);
    await send(proxy.url, { path: '/v1/messages', body });
    const sent = upstream.seen[0]?.body.toString() ?? '';
    expect(sent.length / 4).toBeLessThanOrEqual(20_000);
    expect(sent).toContain('[Dense compacted the');
    expect(proxy.lines.at(-1)).toMatch(/compacted \d+ msgs to the working budget/);
    // Every id the summary names gives back the original bytes.
    const summary =
      (JSON.parse(sent) as { messages: { content: { text: string }[] }[] }).messages[0]?.content[0]
        ?.text ?? '';
    const whole = /dense recall (r[0-9a-f]{10})/.exec(summary)?.[1] ?? '';
    const found = await proxy.recall.lookup(whole);
    expect(found.kind === 'found' ? found.bytes.toString() : '').toContain('"tool_use_id":"read0"');
    const ids = [...summary.matchAll(/recall id (r[0-9a-f]{10})/g)];
    expect(ids.length).toBeGreaterThan(2);
    for (const [, id] of ids) expect((await proxy.recall.lookup(id ?? '')).kind).toBe('found');
  });

  it("#24.1 the budget's estimate is calibrated per character, not per byte (multi-byte text)", async () => {
    // Text of 3-byte characters: per byte the reported prompt would look a third of its size.
    const wide = (body: string) => body.replaceAll('export const value', '輸出定数値'.repeat(4));
    const reported = (body: Buffer) => Math.round(body.toString('utf8').length / 4);
    const upstream = await stub((seen, res) =>
      res.end(JSON.stringify({ usage: { input_tokens: reported(seen.body) } })),
    );
    const second = wide(longSessionBody(24, 3_000));
    const budget = Math.round((second.length / 4) * 0.7);
    const proxy = await proxyTo(upstream.url, { workingBudget: budget });
    await send(proxy.url, { path: '/v1/messages', body: wide(longSessionBody(4, 3_000)) });
    expect(upstream.seen[0]?.body.toString()).not.toContain('[Dense compacted the');
    await send(proxy.url, { path: '/v1/messages', body: second });
    const sent = upstream.seen[1]?.body.toString() ?? '';
    expect(sent).toContain('[Dense compacted the');
    expect(sent.length / 4).toBeLessThanOrEqual(budget);
  });

  it("#24.1 the default budget follows the client the request comes from (Qwen Code's User-Agent), not only the model name", async () => {
    const model = 'a-local-model';
    const qwen = defaultWorkingBudget({ model, longContext: false, client: 'qwen-code' });
    const guessed = defaultWorkingBudget({ model, longContext: false });
    expect(qwen).toBeGreaterThan(guessed);
    // A history between the two budgets (4 characters a token), of outputs nothing prunes.
    const turns: ReturnType<typeof chatTurn> = [];
    const target = ((qwen + guessed) / 2) * 4;
    for (let i = 0; JSON.stringify(turns).length < target; i++) {
      turns.push(
        ...chatTurn(`c${i}`, 'run_shell_command', { command: `step ${i}` }, `${i} `.repeat(1_500)),
      );
    }
    const body = JSON.stringify({ ...(JSON.parse(chatBody(turns)) as object), model });
    const upstream = await stub((_, res) => res.end('{}'));
    const proxy = await proxyTo(upstream.url);
    const path = '/v1/chat/completions';
    const headers = { 'user-agent': 'QwenCode/0.24.4 (linux; x64)' };
    await send(proxy.url, { path, body, headers });
    expect(upstream.seen[0]?.body.toString()).not.toContain('[Dense compacted the');
    await send(proxy.url, { path, body: body.replace('edit a.ts', 'edit b.ts') });
    expect(upstream.seen[1]?.body.toString()).toContain('[Dense compacted the');
  });

  it('#24.1 replies at entry are on by default; entryReplies false forwards a repeated output as it is', async () => {
    const output = Array.from({ length: 40 }, (_, i) => `src/m${i}.ts:${i}: match ${i}`).join('\n');
    const body = chatBody([
      ...chatTurn('c1', 'search', { pattern: 'match' }, output),
      ...chatTurn('c2', 'search', { pattern: 'match' }, output),
    ]);
    const path = '/v1/chat/completions';
    const upstream = await stub((_, res) => res.end('{}'));
    const on = await proxyTo(upstream.url);
    await send(on.url, { path, body });
    expect(upstream.seen[0]?.body.toString()).toContain('[same output as call c1');
    const off = await proxyTo(upstream.url, { entryReplies: false });
    await send(off.url, { path, body });
    expect(upstream.seen[1]?.body.toString()).toBe(body);
  });

  it("#24.1 workingBudget 'off' forwards a long request as it is", async () => {
    const upstream = await stub((_, res) => res.end('{}'));
    const proxy = await proxyTo(upstream.url, { workingBudget: 'off' });
    const body = longSessionBody(30, 4_000);
    await send(proxy.url, { path: '/v1/messages', body });
    expect(upstream.seen[0]?.body.toString()).toBe(body);
  });
});

describe('dense proxy: /dense/stats metering', () => {
  it('#24.6 /dense/stats says per conversation the context upstream vs the client and the compactions avoided', async () => {
    // The upstream reports the prompt it got at characters / 4.
    const upstream = await stub((seen, res) => {
      res.setHeader('content-type', 'application/json');
      const tokens = Math.round(seen.body.length / 4);
      res.end(JSON.stringify({ usage: { input_tokens: tokens, output_tokens: 10 } }));
    });
    const proxy = await proxyTo(upstream.url);
    const headers = { 'x-claude-code-session-id': 'metered' };
    await send(proxy.url, { path: '/v1/messages', body: longSessionBody(60, 12_000), headers });
    await send(proxy.url, { path: '/v1/messages', body: compactionRequestBody(), headers });
    const reply = await send(proxy.url, { path: '/dense/stats', method: 'GET' });
    const json = JSON.parse(reply.chunks.join('')) as ProxyStatsJson;
    const [conversation] = Object.values(json.conversations).filter((t) => t.contextClientTokens);
    expect(conversation?.contextClientTokens).toBeGreaterThan(167_000);
    expect(conversation?.contextUpstreamTokens).toBeLessThan(167_000);
    expect(conversation?.compactionsKeptUnder).toBe(1);
    // #34.1: the reply told the client its history was full, so the compaction Dense answered
    // next was Dense's doing, not one the client avoided.
    expect(proxy.lines).toContain(
      'dense proxy: told the client its history is full (it compacts next)',
    );
    expect(json.totals.compactionsAnswered).toBe(0);
    expect(json.totals.compactionsAvoided).toBe(1);
  });
});
