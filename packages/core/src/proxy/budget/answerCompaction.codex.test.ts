import { describe, expect, it } from 'vitest';
import { parseJsonSpans } from '../wire/jsonSpans.js';
import { codexCompactionRequestBody, codexSessionBody } from '../test-utils/codexSession.js';
import { answerCompaction } from './answerCompaction.js';
import { CLIENT_COMPACTIONS } from './clientCompactionRequests.js';

const codexCompactionReply = (body: Buffer) => answerCompaction('openai-responses', body);
const isCodexCompactionRequest = CLIENT_COMPACTIONS['openai-responses'].isRequest;

type Json = Record<string, unknown>;

function events(sse: string): Json[] {
  return sse
    .split('\n\n')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => JSON.parse(chunk.split('\n')[1]?.replace('data: ', '') ?? '{}') as Json);
}

describe("Codex's compaction request", () => {
  it('#24.2 is recognized by its marker in the last input item, and only then', () => {
    expect(isCodexCompactionRequest(parseJsonSpans(codexCompactionRequestBody()))).toBe(true);
    const plain = codexSessionBody(6, 2_000);
    expect(isCodexCompactionRequest(parseJsonSpans(plain))).toBe(false);
    expect(codexCompactionReply(Buffer.from(plain))).toBeUndefined();
    expect(codexCompactionReply(Buffer.from('not json'))).toBeUndefined();
    // Only on the Responses route.
    const body = Buffer.from(codexCompactionRequestBody());
    expect(answerCompaction('openai-chat', body)).toBeUndefined();
    expect(answerCompaction('anthropic', body)).toBeUndefined();
    expect(answerCompaction('openai-responses', body)).toBeDefined();
  });

  it('#24.2 is answered with a well-formed Responses stream: one assistant message holding the summary, completed', () => {
    const reply = codexCompactionReply(Buffer.from(codexCompactionRequestBody()));
    expect(reply?.contentType).toBe('text/event-stream');
    const list = events(reply?.body ?? '');
    expect(list.map((event) => event.type)).toEqual([
      'response.created',
      'response.output_item.added',
      'response.output_text.delta',
      'response.output_item.done',
      'response.completed',
    ]);
    const done = list[3]?.item as { role: string; content: { type: string; text: string }[] };
    expect(done.role).toBe('assistant');
    expect(done.content[0]?.type).toBe('output_text');
    expect(done.content[0]?.text).toContain('Dense answered this compaction request');
    expect(done.content[0]?.text).toContain('cat src/m0.ts');
    expect(list[2]?.delta).toBe(done.content[0]?.text);
    const completed = list[4]?.response as { status: string; usage: { total_tokens: number } };
    expect(completed.status).toBe('completed');
    expect(completed.usage.total_tokens).toBeLessThan(20_000);
  });

  it('#24.2 names recall ids for the summarized items, whose originals come with the reply', () => {
    const reply = codexCompactionReply(Buffer.from(codexCompactionRequestBody()));
    // Six rounds of reasoning-free call + output, the leading items and the marker left out.
    expect(reply?.messages).toBe(12);
    const ids = [...(reply?.body ?? '').matchAll(/dense recall (r[0-9a-f]{10})/g)].map((m) => m[1]);
    const kept = new Set(reply?.recalls.map((entry) => entry.id));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(kept.has(id ?? '')).toBe(true);
  });

  it('#24.2 a request without streaming gets one JSON response', () => {
    const reply = codexCompactionReply(Buffer.from(codexCompactionRequestBody(4, false)));
    expect(reply?.contentType).toBe('application/json');
    const body = JSON.parse(reply?.body ?? '{}') as { status: string; output: Json[] };
    expect(body.status).toBe('completed');
    expect(body.output[0]).toMatchObject({ type: 'message', role: 'assistant' });
  });
});
