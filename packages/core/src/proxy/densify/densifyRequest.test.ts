import { describe, expect, it } from 'vitest';
import { ConversationStore } from '../decide/conversationStore.js';
import { densifyRequest } from './densifyRequest.js';
import {
  anthropicBody,
  claudeSession,
  codexBody,
  codexShellPatch,
  FILE_TEXT,
  POINTER_JSON,
  pointerAfter,
  unpointed,
  densifyOptions,
} from '../test-utils/wireRequests.js';

const PATCH = '*** Begin Patch\n*** Update File: /w/a.ts\n-v1\n+w1\n*** End Patch';

describe('densifyRequest (Anthropic)', () => {
  it('#24.4 the result names the cache rules the request is priced with, read or not', () => {
    const body = anthropicBody(claudeSession(2)).replace(
      '"cache_control":{"type":"ephemeral"}',
      '"cache_control":{"type":"ephemeral","ttl":"1h"}',
    );
    expect(body).toContain('"ttl":"1h"');
    expect(densifyRequest(densifyOptions(body)).provider).toBe('anthropic-1h');
    const notUtf8 = Buffer.concat([Buffer.from(body), Buffer.from([0xff])]);
    const passed = densifyRequest({ ...densifyOptions(body), body: notUtf8 });
    expect(passed.unsupported).toBeDefined();
    expect(passed.provider).toBe('anthropic-1h');
    expect(densifyRequest(densifyOptions(anthropicBody(claudeSession(2)))).provider).toBe(
      'anthropic',
    );
  });

  it('#15.2 a Read made stale by a successful Edit goes out as the pointer; nothing else changes', () => {
    const body = anthropicBody(claudeSession(2));
    const result = densifyRequest(densifyOptions(body));
    const sent = result.body.toString();
    expect(result.pointers).toBe(1);
    expect(sent).toMatch(pointerAfter(`"tool_use_id":"r1","content":`));
    expect(unpointed(sent, FILE_TEXT)).toBe(body);
  });

  it('#15.2 a failed Edit makes nothing stale', () => {
    const body = anthropicBody(claudeSession(2, { editFails: true }));
    expect(densifyRequest(densifyOptions(body)).body.toString()).toBe(body);
  });

  it('#15.2 the second Read stays intact and the pointer is kept (sticky) on later requests', () => {
    const store = new ConversationStore();
    const first = densifyRequest(
      densifyOptions(anthropicBody(claudeSession(2)), { store, now: 0 }),
    );
    const later = densifyRequest(
      densifyOptions(anthropicBody(claudeSession(3)), { store, now: 1000 }),
    );
    const a = first.body.toString();
    const b = later.body.toString();
    const prefix = a.slice(
      0,
      a.indexOf('{"role":"assistant","content":[{"type":"tool_use","id":"e1"'),
    );
    expect(b.startsWith(prefix)).toBe(true);
    expect(b).toContain(
      `"tool_use_id":"r2","content":${JSON.stringify(`${FILE_TEXT}\n// edited`)}`,
    );
    expect(later).toMatchObject({ pointers: 1, newEdits: 0, prefixStable: true });
  });

  it('#15.3 without a session header, a moved cache breakpoint keeps the same conversation', () => {
    const store = new ConversationStore();
    const first = claudeSession(2);
    first[0] = {
      role: 'user',
      content: [{ type: 'text', text: 'edit a.ts', cache_control: { type: 'ephemeral' } }],
    };
    const a = densifyRequest(densifyOptions(anthropicBody(first), { store, sessionId: undefined }));
    const b = densifyRequest(
      densifyOptions(anthropicBody(claudeSession(3)), { store, sessionId: undefined, now: 1000 }),
    );
    expect(b.conversationId).toBe(a.conversationId);
    expect(b).toMatchObject({ pointers: 1, newEdits: 0 });
  });

  it('#15.3 a small stale result waits while the cache is warm and goes out once it is cold', () => {
    const store = new ConversationStore();
    // Small, yet longer than the pointer that would replace it.
    const small = { readContent: 'short file content, a few dozen characters long\n'.repeat(3) };
    // A cacheable prompt (well above the 1,024-token minimum), so a rewrite has a price, with
    // Claude Code's breakpoints: the system prompt and the newest message's last block.
    const ephemeral = { cache_control: { type: 'ephemeral' } };
    const system = [{ type: 'text', text: 'x'.repeat(20_000), ...ephemeral }];
    const messages = (steps: number) => {
      const session = claudeSession(steps, small) as { content: object[] }[];
      // A long note beside the stale result: the edit would rewrite all of it.
      session[2]!.content = [...session[2]!.content, { type: 'text', text: 'y'.repeat(40_000) }];
      const last = session.at(-1)!;
      last.content = [...last.content.slice(0, -1), { ...last.content.at(-1), ...ephemeral }];
      return anthropicBody(session, { system });
    };
    densifyRequest(densifyOptions(messages(1), { store, now: 0 }));
    const warm = densifyRequest(densifyOptions(messages(2), { store, now: 10_000 }));
    expect(warm).toMatchObject({ pointers: 0, schedule: 'deferred' });
    const cold = densifyRequest(densifyOptions(messages(2), { store, now: 10_000 + 6 * 60_000 }));
    expect(cold).toMatchObject({ pointers: 1, newEdits: 1, schedule: 'cache-cold' });
  });

  it('#15.4 an unknown block type is forwarded untouched, the reason reported once', () => {
    const messages = claudeSession(2);
    messages.push({ role: 'user', content: [{ type: 'mystery_block', x: 1 }] });
    const body = anthropicBody(messages);
    const store = new ConversationStore();
    const first = densifyRequest(densifyOptions(body, { store }));
    const second = densifyRequest(densifyOptions(body, { store }));
    expect(first.body.equals(Buffer.from(body))).toBe(true);
    expect(first.unsupported).toContain('mystery_block');
    expect([first.firstTimeReason, second.firstTimeReason]).toEqual([true, false]);
  });

  it('#15.4 a body that is not JSON is forwarded as the same bytes', () => {
    const body = '{"messages": [';
    const result = densifyRequest(densifyOptions(body));
    expect(result.body.toString()).toBe(body);
    expect(result.unsupported).toMatch(/not parsed/);
  });

  it('#15.2 thinking signatures, images and cache_control inside a pruned result survive', () => {
    const messages = claudeSession(2, {
      readContent: [{ type: 'text', text: FILE_TEXT, cache_control: { type: 'ephemeral' } }],
    });
    messages.splice(1, 0, {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'hmm', signature: 'c2lnbmF0dXJl' },
        { type: 'text', text: 'ok' },
      ],
    });
    messages.splice(2, 0, {
      role: 'user',
      content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAA=' } },
      ],
    });
    const body = anthropicBody(messages);
    const sent = densifyRequest(densifyOptions(body)).body.toString();
    expect(sent).toContain('{"type":"thinking","thinking":"hmm","signature":"c2lnbmF0dXJl"}');
    expect(sent).toContain('"data":"AAA="');
    expect(sent).toMatch(
      new RegExp(
        `"content":\\[\\{"type":"text","text":${POINTER_JSON.source},"cache_control":\\{"type":"ephemeral"\\}\\}\\]`,
      ),
    );
  });
});

describe('densifyRequest (OpenAI Responses, Codex)', () => {
  it('#15.2 a cat made stale by apply_patch goes out as the pointer; the later cat stays', () => {
    const body = codexBody(3);
    const result = densifyRequest(
      densifyOptions(body, { api: 'openai-responses', sessionId: undefined }),
    );
    const sent = result.body.toString();
    expect(result.pointers).toBe(1);
    expect(sent).toMatch(pointerAfter(`"call_id":"c1","output":`));
    expect(sent).toContain(`"call_id":"c2","output":${JSON.stringify(`${FILE_TEXT}\n// edited`)}`);
  });

  const codex = (body: string) =>
    densifyRequest(densifyOptions(body, { api: 'openai-responses', sessionId: undefined }));

  it('#22.2 a cat before an apply_patch whose verification failed goes out intact', () => {
    const failed = [
      { type: 'custom_tool_call', call_id: 'p1', name: 'apply_patch', input: PATCH },
      {
        type: 'custom_tool_call_output',
        call_id: 'p1',
        output: 'apply_patch verification failed: Failed to find expected lines in /w/a.ts:\nv1',
      },
    ] as const;
    const body = codexBody(2, { patch: failed });
    expect(codex(body)).toMatchObject({ pointers: 0 });
    expect(codex(body).body.toString()).toBe(body);
  });

  it('#22.2 a cat before a shell apply_patch that exited 1 goes out intact', () => {
    const output = (exitCode: number) =>
      JSON.stringify({
        output: exitCode === 0 ? 'Success. Updated: M /w/a.ts' : 'error: invalid hunk at line 2',
        metadata: { exit_code: exitCode, duration_seconds: 0.1 },
      });
    const failed = codexBody(2, { patch: codexShellPatch('p1', output(1)) });
    expect(codex(failed).body.toString()).toBe(failed);
    const plainFailed = codexBody(2, {
      patch: codexShellPatch('p1', 'Exit code: 1\nWall time: 0.1 seconds\nOutput:\nerror'),
    });
    expect(codex(plainFailed).body.toString()).toBe(plainFailed);
    // The same patch that succeeded makes the cat stale.
    const applied = codexBody(2, { patch: codexShellPatch('p1', output(0)) });
    expect(codex(applied)).toMatchObject({ pointers: 1 });
  });
});
