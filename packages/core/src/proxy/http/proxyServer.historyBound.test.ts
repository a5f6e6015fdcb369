import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SIGNALS } from '../budget/clientHistoryBound.js';
import { compactionRequestBody, longSessionBody } from '../test-utils/longSession.js';
import { closeLoopback, proxyTo, send, stub, type Seen } from '../test-utils/loopbackProxy.js';
import type { ServerResponse } from 'node:http';

afterEach(closeLoopback);

/** The upstream reports the prompt it got at characters / 4, as JSON or as a stream. */
function reportPrompt(seen: Seen, res: ServerResponse): void {
  const tokens = Math.round(seen.body.length / 4);
  const usage = { input_tokens: 3, cache_read_input_tokens: tokens - 3, output_tokens: 1 };
  if ((JSON.parse(seen.body.toString()) as { stream?: boolean }).stream !== true) {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ type: 'message', content: [{ type: 'text', text: 'ok' }], usage }));
    return;
  }
  res.setHeader('content-type', 'text/event-stream');
  const start = { type: 'message_start', message: { usage } };
  const delta = { type: 'message_delta', usage: { output_tokens: 9 } };
  res.end(
    `event: message_start\r\ndata: ${JSON.stringify(start)}\r\n\r\n` +
      `event: message_delta\r\ndata: ${JSON.stringify(delta)}\r\n\r\n`,
  );
}

/** The prompt (input + cache write + cache read) a reply told the client. */
function toldPrompt(text: string): number {
  const json = text.includes('message_start')
    ? (JSON.parse(/data: (.*)\r\n/.exec(text)?.[1] ?? '{}') as { message: { usage: object } })
        .message
    : (JSON.parse(text) as { usage: object });
  const usage = json.usage as Record<string, number | undefined>;
  return (
    (usage.input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0)
  );
}

const streamed = (body: string) =>
  JSON.stringify({ ...(JSON.parse(body) as object), stream: true });

describe("dense proxy: the client's own history stays bounded (#34.1)", () => {
  it.each([
    ['JSON', (body: string) => body],
    ['stream', streamed],
  ])(
    '#34.1 once the history the client holds reaches the bound, the %s reply tells it its compaction threshold; the meter keeps the upstream usage',
    async (_, shape) => {
      const upstream = await stub(reportPrompt);
      const proxy = await proxyTo(upstream.url, { workingBudget: 8_000 });
      const small = await send(proxy.url, {
        path: '/v1/messages',
        body: shape(longSessionBody(3, 2_000)),
      });
      expect(toldPrompt(small.chunks.join(''))).toBeLessThan(8_000);
      const body = shape(longSessionBody(20, 4_000));
      const large = await send(proxy.url, { path: '/v1/messages', body });
      const sent = upstream.seen[1]?.body.length ?? 0;
      expect(body.length / 4).toBeGreaterThan(16_000);
      expect(sent / 4).toBeLessThan(8_000);
      expect(toldPrompt(large.chunks.join(''))).toBe(169_000);
      const recorded = proxy.stats.toJSON().recent.at(-1)?.usage;
      expect((recorded?.input ?? 0) + (recorded?.cacheRead ?? 0)).toBe(Math.round(sent / 4));
      expect(proxy.lines).toContain(
        'dense proxy: told the client its history is full (it compacts next)',
      );
    },
  );

  it('#34.1 a client that does not compact is told at most MAX_SIGNALS times; its compaction, answered by Dense, starts the count again', async () => {
    const upstream = await stub(reportPrompt);
    const proxy = await proxyTo(upstream.url, { workingBudget: 8_000 });
    const told: number[] = [];
    for (let round = 20; round < 22 + MAX_SIGNALS; round++) {
      const reply = await send(proxy.url, {
        path: '/v1/messages',
        body: longSessionBody(round, 4_000),
      });
      told.push(toldPrompt(reply.chunks.join('')));
    }
    // The threshold of the window assumed, then (not heeded) that of the long-context window.
    expect(told.slice(0, MAX_SIGNALS)).toEqual([169_000, 1_000_000, 1_000_000]);
    expect(told.slice(MAX_SIGNALS).every((prompt) => prompt < 8_000)).toBe(true);
    const answered = await send(proxy.url, { path: '/v1/messages', body: compactionRequestBody() });
    expect(answered.chunks.join('')).toContain('<summary>');
    const after = await send(proxy.url, { path: '/v1/messages', body: longSessionBody(30, 4_000) });
    expect(toldPrompt(after.chunks.join(''))).toBe(169_000);
  });

  it("#34.1 with the working budget off the client's usage is never touched", async () => {
    const upstream = await stub(reportPrompt);
    const proxy = await proxyTo(upstream.url, { workingBudget: 'off' });
    const body = longSessionBody(20, 4_000);
    const reply = await send(proxy.url, { path: '/v1/messages', body });
    expect(toldPrompt(reply.chunks.join(''))).toBe(Math.round(body.length / 4));
  });
});
