import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, test } from 'vitest';
import { RequestReadCache } from './requestReadCache.js';
import { bigSessionBody } from '../test-utils/bigSession.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function heapAfterGc(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Heap bytes a kept read of `body` holds per wire message, and the messages read. */
function keptPerMessage(body: Buffer): { readonly bytes: number; readonly messages: number } {
  const before = heapAfterGc();
  const cache = new RequestReadCache();
  const read = cache.read({ api: 'anthropic', sessionId: 's', body });
  const messages = read.outcome.kind === 'history' ? read.outcome.wire.messageCount : 0;
  const after = heapAfterGc();
  expect(cache.size.entries).toBe(1);
  return { bytes: (after - before) / Math.max(1, messages), messages };
}

// Builds and measures a large conversation on the heap: 1.8 s loaded, so its own timeout.
describe('what a kept read holds', { timeout: 30_000 }, () => {
  test('#24.4 a Claude Code-shaped conversation keeps under 2,000 heap bytes a message (parse tree and history)', () => {
    // ASCII: the text is held outside the heap, so this is the tree, history and tables (about
    // 2,500 bytes a message with a Map per object node and arrays with spare capacity).
    const body = Buffer.from(bigSessionBody(250_000));
    keptPerMessage(body);
    const { bytes, messages } = keptPerMessage(body);
    expect(messages).toBeGreaterThan(1_800);
    expect(bytes).toBeLessThan(2_000);
  });

  test('#24.4 a conversation read request after request keeps about its own text, not a copy of each request', () => {
    // Each request: the messages so far, then a 100k-character two-byte system prompt (as Claude
    // Code sends its prompt and tools after the messages). 150 requests, each 2 turns more.
    const system = 'é'.repeat(100_000);
    const turn = (n: number) => ({
      role: n % 2 === 0 ? 'user' : 'assistant',
      content: `${n} ${'ü'.repeat(1_000)}`,
    });
    const body = (turns: number) =>
      Buffer.from(
        JSON.stringify({
          model: 'm',
          messages: Array.from({ length: turns }, (_, n) => turn(n)),
          system,
        }),
      );
    const before = heapAfterGc();
    const cache = new RequestReadCache();
    for (let turns = 1; turns <= 301; turns += 2)
      cache.read({ api: 'anthropic', sessionId: 's', body: body(turns) });
    expect(cache.size.entries).toBeGreaterThan(0);
    // The last text, two bytes a character, is 1.2 MB (1.4 MB held in all); holding each
    // request's cut-off system prompt would be 150 × 200 KB more (15.6 MB).
    expect(heapAfterGc() - before).toBeLessThan(4 * 2 ** 20);
  });
});
