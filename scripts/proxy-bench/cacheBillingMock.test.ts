import { afterEach, describe, expect, it } from 'vitest';
import { startCacheBillingMock, type CacheBillingMock } from './cacheBillingMock.js';

let mock: CacheBillingMock | undefined;
afterEach(async () => {
  await mock?.close();
  mock = undefined;
});

const body = (turns: number) =>
  JSON.stringify({
    model: 'claude-test',
    stream: true,
    system: [{ type: 'text', text: 'x'.repeat(4_000), cache_control: { type: 'ephemeral' } }],
    messages: Array.from({ length: turns }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: [
        {
          type: 'text',
          text: `turn ${i}`,
          ...(i === turns - 1 ? { cache_control: { type: 'ephemeral' } } : {}),
        },
      ],
    })),
  });

describe('#24.5 cache-billing mock', () => {
  it('streams the scripted reply and reports the usage its prompt cache billed', async () => {
    let now = 0;
    mock = await startCacheBillingMock({ clock: () => now, count: (text) => text.length });
    const post = async (text: string) =>
      (
        await fetch(`${mock?.url}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: text,
        })
      ).text();
    mock.answerNext({ kind: 'stream', text: 'hello' });
    const first = await post(body(1));
    expect(first).toContain('"text":"hello"');
    expect(first).toContain('"cache_creation_input_tokens":4006');
    now = 60_000;
    const second = await post(body(3));
    expect(second).toContain('"cache_read_input_tokens":4006');
    expect(second).toContain('"cache_creation_input_tokens":12');
    expect(mock.bills.map((bill) => bill.promptTokens)).toEqual([4_006, 4_018]);
    expect(mock.bills[1]?.outputTokens).toBe(5);
  });
});
