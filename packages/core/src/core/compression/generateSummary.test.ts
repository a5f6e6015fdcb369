import { describe, expect, it } from 'vitest';
import type { ProviderChunk } from '../../providers/IProvider.js';
import { collectReplyText, extractStateSnapshot } from './generateSummary.js';

async function* chunks(...items: ProviderChunk[]): AsyncIterable<ProviderChunk> {
  for (const item of items) yield await Promise.resolve(item);
}

describe('collectReplyText', () => {
  it('concatenates text deltas and ignores thinking, tool calls and usage', async () => {
    const text = await collectReplyText(
      chunks(
        { content: { speaker: 'ai', blocks: [{ type: 'thinking', thought: 'hmm' }] } },
        { content: { speaker: 'ai', blocks: [{ type: 'text', text: '<state_' }] } },
        {
          content: {
            speaker: 'ai',
            blocks: [{ type: 'tool_call', id: 'x', name: 'nope', parameters: {} }],
          },
        },
        { content: { speaker: 'ai', blocks: [{ type: 'text', text: 'snapshot>' }] } },
        {
          content: { speaker: 'ai', blocks: [] },
          usage: { promptTokens: 1, completionTokens: 1, totalTokens: 2 },
        },
      ),
    );
    expect(text).toBe('<state_snapshot>');
  });
});

describe('extractStateSnapshot', () => {
  it('keeps only the snapshot element when the model wrote around it', () => {
    const reply = 'Sure! Here it is:\n```xml\n<state_snapshot>\n<a>x</a>\n</state_snapshot>\n```\n';
    expect(extractStateSnapshot(reply)).toBe('<state_snapshot>\n<a>x</a>\n</state_snapshot>');
  });

  it('spans from the first opening to the last closing tag', () => {
    const reply = '<state_snapshot>a</state_snapshot> and <state_snapshot>b</state_snapshot>';
    expect(extractStateSnapshot(reply)).toBe(reply);
  });

  it('returns the trimmed reply when there is no complete element', () => {
    expect(extractStateSnapshot('  prose only \n')).toBe('prose only');
    expect(extractStateSnapshot('<state_snapshot> cut off')).toBe('<state_snapshot> cut off');
    expect(extractStateSnapshot('</state_snapshot> <state_snapshot>')).toBe(
      '</state_snapshot> <state_snapshot>',
    );
    expect(extractStateSnapshot(' \n ')).toBe('');
  });
});
