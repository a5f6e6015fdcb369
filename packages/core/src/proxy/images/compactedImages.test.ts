import { describe, expect, it } from 'vitest';
import { budgetProxy } from '../test-utils/budgetProxy.js';
import { longSessionMessages } from '../test-utils/longSession.js';
import { anthropicImageBlock, pngBytes } from '../test-utils/syntheticImages.js';
import { anthropicBody } from '../test-utils/wireRequests.js';
import { compactedImages } from './compactedImages.js';

type Json = Record<string, unknown>;

const SCREENSHOT = pngBytes(1280, 800, 200 * 1024);
const DIAGRAM = pngBytes(640, 480, 4 * 1024);

/** A long session whose first message pastes a screenshot and whose first Read returns an image. */
function sessionWithImages(): string {
  const messages = longSessionMessages(30, 4_000);
  (messages[0] as { content: Json[] }).content.unshift(anthropicImageBlock(SCREENSHOT));
  const read = messages[4] as { content: Json[] };
  const result = read.content[0] as Json;
  read.content[0] = { ...result, content: [anthropicImageBlock(DIAGRAM)] };
  return anthropicBody(messages, { model: 'claude-sonnet-4-6' });
}

function summaryOf(body: Buffer): string {
  const sent = JSON.parse(body.toString()) as { messages: { content: { text?: string }[] }[] };
  return String(sent.messages[0]?.content[0]?.text);
}

describe('a compacted image leaves a trace', () => {
  it('#34.4 each compacted image is one summary line with its media type, size and a recall id that gives the image back', () => {
    const { send, kept } = budgetProxy({ api: 'anthropic', budget: 30_000, sessionId: 's' });
    const result = send(sessionWithImages());
    expect(result.compaction?.kind).toBe('compacted');
    const summary = summaryOf(result.body);
    const traces = [...summary.matchAll(/\[image: (\S+), (\d+×\d+), recall id (r[0-9a-f]{10})\]/g)];
    expect(traces.map((match) => [match[1], match[2]])).toEqual([
      ['image/png', '1280×800'],
      ['image/png', '640×480'],
    ]);
    for (const [match, bytes] of [
      [traces[0], SCREENSHOT],
      [traces[1], DIAGRAM],
    ] as const) {
      const original = JSON.parse(kept.get(match?.[3] ?? '') ?? 'null') as {
        source: { media_type: string; data: string };
      };
      expect(original.source.media_type).toBe('image/png');
      expect(Buffer.from(original.source.data, 'base64').equals(bytes)).toBe(true);
    }
  });

  it('#34.4 a tool result holding an image recalls its content (the image), never {"opaque":true}', () => {
    const { send, kept } = budgetProxy({ api: 'anthropic', budget: 30_000, sessionId: 's' });
    send(sessionWithImages());
    const originals = [...kept.values()];
    expect(originals).not.toContain('{"opaque":true}');
    const content = originals.find((text) => text.startsWith('[{"type":"image"'));
    expect(content).toBeDefined();
    const blocks = JSON.parse(content ?? '[]') as { source: { data: string } }[];
    expect(Buffer.from(blocks[0]?.source.data ?? '', 'base64').equals(DIAGRAM)).toBe(true);
  });
});

describe('compacted images on the OpenAI wires', () => {
  it('#34.4 Chat image_url and Responses input_image data URLs leave the same trace, recalled as an image block', () => {
    const png = pngBytes(800, 600, 1_000);
    const url = `data:image/png;base64,${png.toString('base64')}`;
    const chat = { role: 'user', content: [{ type: 'image_url', image_url: { url } }] };
    const responses = {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_image', image_url: url, detail: 'low' }],
    };
    const entries = [chat, responses].map(() => ({ speaker: 'human' as const, blocks: [] }));
    const images = compactedImages(
      entries,
      [chat, responses].map((m) => JSON.stringify(m)).join(','),
    );
    const lines = images.withTraces([[], []]).map((line) => line.text);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\[image: image\/png, 800×600, recall id r[0-9a-f]{10}\]$/);
    // One image, one id, one original.
    expect(lines[1]).toBe(lines[0]);
    expect(images.recall).toHaveLength(1);
    expect(JSON.parse(images.recall[0]?.text ?? '{}')).toEqual(anthropicImageBlock(png));
  });
});
