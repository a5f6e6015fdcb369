import type { IContent } from '@dense/core';
import { describe, expect, it } from 'vitest';
import { CODEX_KEPT_USER_CHARS, codexKeptMessages } from './codexKeptMessages.js';

const user = (text: string): IContent => ({ speaker: 'human', blocks: [{ type: 'text', text }] });

describe('codexKeptMessages: what Codex keeps through its compaction (#34.1)', () => {
  it("#34.1 the user's messages, newest first up to the cap, in order; a held summary's own text is not one", () => {
    const held: IContent = {
      speaker: 'human',
      blocks: [
        { type: 'text', text: 'first task' },
        { type: 'text', text: 'SUMMARY' },
      ],
      metadata: { isSummary: true },
    };
    const reply: IContent = { speaker: 'ai', blocks: [{ type: 'text', text: 'done' }] };
    expect(codexKeptMessages([held, reply, user('second task')])).toEqual([
      'first task',
      'second task',
    ]);
    const big = 'x'.repeat(CODEX_KEPT_USER_CHARS - 5);
    expect(codexKeptMessages([user('old one'), user(big), user('new')])).toEqual([big, 'new']);
  });
});
