import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../decide/conversationStore.js';
import { densifyRequest } from './densifyRequest.js';
import {
  anthropicBody,
  chatBody,
  chatTurn,
  claudeSession,
  FILE_TEXT,
  pointerAfter,
  unpointed,
  densifyOptions,
} from '../test-utils/wireRequests.js';

const EDITED = `${FILE_TEXT}\n// edited`;

/** Read a.ts → Edit a.ts → Read a.ts, every call named `call_1`. */
const reusedIdTurns = [
  ...chatTurn('call_1', 'Read', { file_path: '/w/a.ts' }, FILE_TEXT),
  ...chatTurn(
    'call_1',
    'Edit',
    { file_path: '/w/a.ts', old_string: 'v1', new_string: 'w1' },
    'The file /w/a.ts has been updated.',
  ),
  ...chatTurn('call_1', 'Read', { file_path: '/w/a.ts' }, EDITED),
];

describe('densifyRequest decides by position, not by call id', () => {
  it('#22.1 OpenAI Chat, one id for every call: the stale first read is the one replaced', () => {
    const body = chatBody(reusedIdTurns);
    const result = densifyRequest(
      densifyOptions(body, { api: 'openai-chat', sessionId: undefined }),
    );
    const sent = result.body.toString();
    expect(result.pointers).toBe(1);
    expect(sent).toMatch(pointerAfter(`"tool_call_id":"call_1","content":`));
    expect(sent).toContain(`"tool_call_id":"call_1","content":${JSON.stringify(EDITED)}`);
    expect(unpointed(sent, FILE_TEXT)).toBe(body);
  });

  it('#22.1 a history rewound to before the edit sends its read intact, though it was a pointer', () => {
    const store = new ConversationStore();
    const first = densifyRequest(densifyOptions(anthropicBody(claudeSession(2)), { store }));
    expect(first.pointers).toBe(1);
    const rewound = claudeSession(1);
    rewound.push({ role: 'user', content: [{ type: 'text', text: 'no, leave it as it is' }] });
    const body = anthropicBody(rewound);
    const later = densifyRequest(densifyOptions(body, { store, now: 1000 }));
    expect(later.body.toString()).toBe(body);
    expect(later.pointers).toBe(0);
  });

  it('#22.1 after the rewind, the same edit made again makes the read stale again', () => {
    const store = new ConversationStore();
    densifyRequest(densifyOptions(anthropicBody(claudeSession(2)), { store }));
    densifyRequest(densifyOptions(anthropicBody(claudeSession(1)), { store, now: 1000 }));
    const again = densifyRequest(
      densifyOptions(anthropicBody(claudeSession(2)), { store, now: 2000 }),
    );
    expect(again.body.toString()).toMatch(pointerAfter(`"tool_use_id":"r1","content":`));
  });
});
