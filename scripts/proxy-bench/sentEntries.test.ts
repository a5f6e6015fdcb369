import { describe, expect, it } from 'vitest';
import { sentEntries } from './sentEntries.js';

describe('bench:proxy: what a forwarded request shows the oracle', () => {
  it('#24.5 a block of a shape the reader does not know shows its strings, not their JSON escapes', () => {
    const body = {
      messages: [
        {
          role: 'assistant',
          content: [{ type: 'thinking', thinking: 'check "ledgerWidth"\nthen src/ledger.ts' }],
        },
      ],
    };
    const [entry] = sentEntries(body, 'anthropic');
    const block = entry?.blocks[0];
    expect(block?.type === 'text' ? block.text : '').toContain('"ledgerWidth"\nthen src/ledger.ts');
  });
});
