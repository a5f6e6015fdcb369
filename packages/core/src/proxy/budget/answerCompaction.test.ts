import { describe, expect, it } from 'vitest';
import { parseJsonSpans } from '../wire/jsonSpans.js';
import { compactionRequestBody, longSessionMessages, TASK } from '../test-utils/longSession.js';
import { anthropicBody } from '../test-utils/wireRequests.js';
import { answerCompaction } from './answerCompaction.js';
import { CLIENT_COMPACTIONS, COMPACTION_MARKER } from './clientCompactionRequests.js';

const compactionReply = (body: Buffer) => answerCompaction('anthropic', body);
const isCompactionRequest = CLIENT_COMPACTIONS.anthropic.isRequest;

type Json = Record<string, unknown>;

interface Event {
  readonly event: string;
  readonly data: Json;
}

function events(sse: string): Event[] {
  return sse
    .split('\n\n')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const [eventLine = '', dataLine = ''] = chunk.split('\n');
      return {
        event: eventLine.replace('event: ', ''),
        data: JSON.parse(dataLine.replace('data: ', '')) as Json,
      };
    });
}

describe("the client's compaction request", () => {
  it('#24.1 is recognized by its marker in the last user message, and only then', () => {
    expect(isCompactionRequest(parseJsonSpans(compactionRequestBody()))).toBe(true);
    const plain = anthropicBody(longSessionMessages(6, 2_000));
    expect(isCompactionRequest(parseJsonSpans(plain))).toBe(false);
    expect(compactionReply(Buffer.from(plain))).toBeUndefined();
    expect(compactionReply(Buffer.from('not json'))).toBeUndefined();
  });

  it('#24.1 is answered with a well-formed stream: analysis then summary, end_turn', () => {
    const reply = compactionReply(Buffer.from(compactionRequestBody()));
    expect(reply?.contentType).toBe('text/event-stream');
    const list = events(reply?.body ?? '');
    expect(list.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const delta = list[2]?.data.delta as { type: string; text: string };
    expect(delta.type).toBe('text_delta');
    expect(delta.text).toMatch(/^<analysis>[\s\S]+<\/analysis>\n\n<summary>[\s\S]+<\/summary>$/);
    expect(delta.text).toContain(TASK);
    expect(delta.text).toContain('Add validation to lexer.ts');
    expect(delta.text).not.toContain(COMPACTION_MARKER);
    const ids = [...delta.text.matchAll(/recall id (r[0-9a-f]{10})/g)].map((m) => m[1] as string);
    expect(ids.length).toBeGreaterThan(0);
    const kept = new Set(reply?.recalls.map((entry) => entry.id));
    for (const id of ids) expect(kept.has(id)).toBe(true);
    expect((list[4]?.data.delta as Json).stop_reason).toBe('end_turn');
  });

  it('#24.1 a non-streaming compaction request gets one JSON message', () => {
    const reply = compactionReply(Buffer.from(compactionRequestBody(false)));
    expect(reply?.contentType).toBe('application/json');
    const message = JSON.parse(reply?.body ?? '{}') as { content: { text: string }[] };
    expect(message.content[0]?.text).toContain('<summary>');
  });

  it('#24.1 the same request always gets the same reply', () => {
    const body = Buffer.from(compactionRequestBody());
    expect(compactionReply(body)?.body).toBe(compactionReply(body)?.body);
  });
});
