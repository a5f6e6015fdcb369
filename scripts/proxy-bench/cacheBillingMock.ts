/**
 * The bench's upstream: the project's loopback mock server answering each request with the next
 * recorded reply as an SSE stream, and usage billed by a `PromptCache` as the provider would report
 * it (Anthropic: uncached input, cache writes and cache reads apart; OpenAI: prompt tokens with the
 * cached ones inside). The clock is the replay's recorded time, not the wall clock.
 */
import { cacheRulesFor } from '@dense/core';
import {
  startMockServer,
  type MockServer,
  type MockStreamReply,
} from '../../packages/core/src/test-utils/mockServer/index.js';
import {
  anthropicPromptBlocks,
  responsesPromptBlocks,
  type CountTokens,
} from '../../packages/core/src/test-utils/promptBlocks.js';
import { PromptCache, type PromptBill } from '../../packages/core/src/test-utils/promptCache.js';

export interface BilledRequest extends PromptBill {
  readonly outputTokens: number;
  /** Wall-clock ms the mock spent billing (subtracted from the round trips the bench times). */
  readonly billMs: number;
}

export interface CacheBillingMock {
  readonly url: string;
  /** Every request billed, in order. */
  readonly bills: readonly BilledRequest[];
  /** The parsed body of the latest request (only that one is kept). */
  readonly lastBody: unknown;
  /** Sets the reply to the next request. */
  answerNext(reply: MockStreamReply): void;
  close(): Promise<void>;
}

export interface CacheBillingMockOptions {
  readonly clock: () => number;
  readonly count: CountTokens;
}

function replyTokens(reply: MockStreamReply, count: CountTokens): number {
  const text = [reply.text ?? []].flat().join('');
  const calls = (reply.toolCalls ?? []).map((call) => JSON.stringify(call.arguments ?? {}));
  return count(text + calls.join(''));
}

export async function startCacheBillingMock(
  options: CacheBillingMockOptions,
): Promise<CacheBillingMock> {
  const anthropic = new PromptCache(cacheRulesFor('anthropic'));
  const openai = new PromptCache(cacheRulesFor('openai'));
  const bills: BilledRequest[] = [];
  let next: MockStreamReply = { kind: 'stream', text: '' };
  let lastBody: unknown;
  const server: MockServer = await startMockServer({
    respond: (request) => {
      const started = performance.now();
      lastBody = request.body;
      const isAnthropic = request.provider === 'anthropic';
      const blocks = isAnthropic
        ? anthropicPromptBlocks(request.body, options.count)
        : responsesPromptBlocks(request.body, options.count);
      const bill = (isAnthropic ? anthropic : openai).bill(blocks, options.clock());
      const outputTokens = replyTokens(next, options.count);
      bills.push({ ...bill, outputTokens, billMs: performance.now() - started });
      return {
        ...next,
        usage: {
          promptTokens: bill.promptTokens,
          completionTokens: outputTokens,
          cachedTokens: bill.cacheReadTokens,
          ...(isAnthropic ? { cacheWriteTokens: bill.cacheWriteTokens } : {}),
        },
      };
    },
  });
  return {
    url: server.url,
    bills,
    get lastBody() {
      return lastBody;
    },
    answerNext: (reply) => {
      next = reply;
    },
    close: () => server.close(),
  };
}
