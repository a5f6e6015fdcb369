import { describe, expect, it } from 'vitest';
import { budgetProxy } from '../test-utils/budgetProxy.js';
import { longSessionMessages } from '../test-utils/longSession.js';
import { anthropicImageBlock, pngBytes } from '../test-utils/syntheticImages.js';
import { anthropicBody } from '../test-utils/wireRequests.js';

describe('working budget: images count by their rule (#34.4)', () => {
  it('#34.4 a pasted 600 KB screenshot (1,366 tokens by the rule) does not make a conversation under the budget compact', () => {
    const messages = longSessionMessages(20, 4_000);
    const first = messages[0] as { content: unknown[] };
    first.content.push(anthropicImageBlock(pngBytes(1280, 800, 600 * 1024)));
    const body = anthropicBody(messages, { model: 'claude-sonnet-4-6' });
    // As text the base64 alone would be ~200k tokens, past any default budget.
    expect(body.length / 4).toBeGreaterThan(200_000);
    const { send } = budgetProxy({ api: 'anthropic', budget: undefined });
    expect(send(body).compaction).toBeUndefined();
  });
});
