import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as anthropicHistory from './anthropicHistory.js';
import { readAnthropicRequest } from './anthropicHistory.js';
import { parseJsonSpans } from './jsonSpans.js';
import type { RequestReadCache as Cache } from './requestReadCache.js';
import { anthropicBody } from '../test-utils/wireRequests.js';

const reader = { fail: false };
let RequestReadCache: typeof Cache;

// A reader that can be made to fail, for a cache imported afresh (the tests share a worker's
// modules, so a hoisted module mock would not reach an already imported cache).
beforeAll(async () => {
  vi.resetModules();
  vi.doMock('./anthropicHistory.js', async (importOriginal) => {
    const actual = await importOriginal<typeof anthropicHistory>();
    return {
      ...actual,
      readAnthropicRequest: (...args: Parameters<typeof actual.readAnthropicRequest>) => {
        if (reader.fail) throw new Error('reader failed');
        return actual.readAnthropicRequest(...args);
      },
    };
  });
  ({ RequestReadCache } = await import('./requestReadCache.js'));
});

afterAll(() => {
  vi.doUnmock('./anthropicHistory.js');
  vi.resetModules();
});

type Json = Record<string, unknown>;
const user = (text: string): Json => ({ role: 'user', content: [{ type: 'text', text }] });
const call = (id: string, path: string): Json => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: path } }],
});
const result = (id: string, text: string): Json => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content: text }],
});

describe('RequestReadCache: a read that fails while resuming', () => {
  it('#24.4 drops the entry it rewound, so a later request is read as a full read reads it', () => {
    const cache = new RequestReadCache();
    const head = [user('read the files'), call('a', '/w/a.ts'), result('a', 'export const a = 1;')];
    const first = anthropicBody([
      ...head,
      call('b', '/w/b.ts'),
      result('b', 'export const b = 2;'),
    ]);
    cache.read({ api: 'anthropic', text: first, sessionId: 's' });
    // The same history with its newest call changed: resumed before that call, then the reader fails.
    const edited = anthropicBody([...head, call('b', '/w/c.ts'), result('b', 'x')]);
    reader.fail = true;
    expect(() => cache.read({ api: 'anthropic', text: edited, sessionId: 's' })).toThrow();
    reader.fail = false;
    const later = anthropicBody([
      ...head,
      call('b', '/w/b.ts'),
      result('b', 'export const b = 2;'),
      call('d', '/w/d.ts'),
      result('d', 'export const d = 4;'),
    ]);
    const read = cache.read({ api: 'anthropic', text: later, sessionId: 's' }).outcome;
    expect(read).toEqual(readAnthropicRequest(later, parseJsonSpans(later)));
  });
});
