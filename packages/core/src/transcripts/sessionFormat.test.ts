import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { ContentBlock, IContent } from '../services/history/IContent.js';
import {
  parseSessionLine,
  serializeSessionContent,
  serializeSessionEvent,
  serializeSessionHeader,
  type SessionHeader,
} from './sessionFormat.js';

const HEADER: SessionHeader = {
  sessionId: 's-1',
  startedAt: '2026-11-22T10:00:00.000Z',
  workspaceRoot: '/home/dev/app',
  provider: 'scripted',
  model: 'test-model',
};

const scalar = fc.oneof(fc.string({ maxLength: 20 }), fc.integer(), fc.boolean());
const params = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), scalar, { maxKeys: 4 });
const block: fc.Arbitrary<ContentBlock> = fc.oneof(
  fc.record({ type: fc.constant('text' as const), text: fc.string({ maxLength: 40 }) }),
  fc.record({
    type: fc.constant('tool_call' as const),
    id: fc.string({ minLength: 1, maxLength: 8 }),
    name: fc.constantFrom('read_file', 'replace', 'run_shell_command'),
    parameters: params,
  }),
  fc.record(
    {
      type: fc.constant('tool_response' as const),
      callId: fc.string({ minLength: 1, maxLength: 8 }),
      toolName: fc.constantFrom('read_file', 'replace'),
      result: fc.string({ maxLength: 40 }),
      error: fc.string({ maxLength: 20 }),
    },
    { requiredKeys: ['type', 'callId', 'toolName', 'result'] },
  ),
  fc.record({ type: fc.constant('thinking' as const), thought: fc.string({ maxLength: 40 }) }),
);
const content: fc.Arbitrary<IContent> = fc.record(
  {
    speaker: fc.constantFrom('human' as const, 'ai' as const, 'tool' as const),
    blocks: fc.array(block, { maxLength: 4 }),
    metadata: fc.record({ model: fc.string({ maxLength: 10 }), synthetic: fc.boolean() }),
  },
  { requiredKeys: ['speaker', 'blocks'] },
);

describe('session format', () => {
  it('writes one terminated JSON line per record', () => {
    const line = serializeSessionHeader(HEADER);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    expect(JSON.parse(line)).toEqual({ kind: 'session', version: 1, ...HEADER });
  });

  it('reads the header back', () => {
    expect(parseSessionLine(serializeSessionHeader(HEADER))).toEqual({
      kind: 'session',
      header: HEADER,
      version: 1,
    });
  });

  test.prop([content], { numRuns: 200 })('round-trips any history entry', (entry) => {
    expect(parseSessionLine(serializeSessionContent(entry))).toEqual({
      kind: 'content',
      content: entry,
    });
  });

  it('reads event lines as events', () => {
    const line = serializeSessionEvent({ type: 'compression', removedTokens: 12 });
    expect(parseSessionLine(line)).toEqual({
      kind: 'event',
      event: { type: 'compression', removedTokens: 12, kind: 'event' },
    });
  });

  it.each([
    ['{oops', 'invalid JSON'],
    ['{"kind":"other"}', 'expected "kind" to be "session", "content" or "event"'],
    ['{"kind":"session","version":1}', 'session header:'],
    ['{"kind":"content","content":{"speaker":"robot","blocks":[]}}', 'content line:'],
    [
      '{"kind":"content","content":{"speaker":"ai","blocks":[{"type":"tool_call","id":1}]}}',
      'content line:',
    ],
  ])('reports %s as invalid with a reason', (line, reason) => {
    const parsed = parseSessionLine(line);
    expect(parsed.kind).toBe('invalid');
    if (parsed.kind === 'invalid') expect(parsed.reason).toContain(reason);
  });
});
