import { describe, expect, it } from 'vitest';
import { anthropicImageBlock, jpegBytes, pngBytes } from '../test-utils/syntheticImages.js';
import type { TextSlices } from '../../utils/TextSlices.js';
import {
  bodyImageLoad,
  imageLoadsOf,
  LOOK_CHARS,
  mentionsBase64,
  requestImages,
} from './requestImages.js';

const SCREENSHOT = pngBytes(1280, 800, 600 * 1024);

describe('the base64 images of a request', () => {
  it('#34.4 finds an Anthropic image block (top level and inside a tool result) and sizes it by its header, not its base64', () => {
    const body = JSON.stringify({
      model: 'claude-sonnet-4-6',
      messages: [
        { role: 'user', content: [anthropicImageBlock(SCREENSHOT), { type: 'text', text: 'hi' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'Write', input: { data: 'x'.repeat(50) } }],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              content: [anthropicImageBlock(jpegBytes(400, 300), 'image/jpeg')],
            },
          ],
        },
      ],
    });
    const images = requestImages(body);
    expect(images.map((image) => [image.mediaType, image.size, image.rule, image.tokens])).toEqual([
      ['image/png', { width: 1280, height: 800 }, 'anthropic', 1366],
      ['image/jpeg', { width: 400, height: 300 }, 'anthropic', 160],
    ]);
    const first = images[0];
    expect(body.slice(first?.start, first?.end)).toBe(SCREENSHOT.toString('base64'));
    expect(bodyImageLoad(Buffer.from(body))).toEqual({
      chars: images.reduce((sum, image) => sum + image.end - image.start, 0),
      tokens: 1366 + 160,
    });
  });

  it('#34.4 finds OpenAI data URLs (Chat image_url with detail, Responses input_image), in spaced JSON too', () => {
    const url = `data:image/png;base64,${pngBytes(1024, 1024, 2_000).toString('base64')}`;
    const chat = JSON.stringify(
      {
        messages: [
          { role: 'user', content: [{ type: 'image_url', image_url: { url, detail: 'low' } }] },
          { role: 'user', content: [{ type: 'image_url', image_url: { url } }] },
        ],
      },
      null,
      2,
    );
    expect(requestImages(chat).map((image) => [image.rule, image.tokens])).toEqual([
      ['openai', 85],
      ['openai', 765],
    ]);
    const responses = JSON.stringify({
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_image', image_url: url }] },
      ],
    });
    expect(requestImages(responses).map((image) => image.tokens)).toEqual([765]);
  });

  it('#34.4 a text without base64 images has none; a document is not an image', () => {
    const pdf = {
      type: 'document',
      source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0xLjQK'.repeat(20) },
    };
    const body = JSON.stringify({ messages: [{ role: 'user', content: [pdf] }] });
    expect(requestImages(body)).toEqual([]);
    expect(bodyImageLoad(Buffer.from('{"messages":[]}'))).toEqual({ chars: 0, tokens: 0 });
  });

  it('#34.4 an image straddling the 1 MiB scan chunks is found once; loads are given per span', () => {
    const padding = 'p'.repeat((1 << 20) - 30);
    const block = JSON.stringify(anthropicImageBlock(SCREENSHOT));
    const text = `[${JSON.stringify(padding)},${block},${block}]`;
    const images = requestImages(text);
    expect(images).toHaveLength(2);
    const second = text.indexOf(block, text.indexOf(block) + 1);
    const spans = [
      { start: 0, end: padding.length + 3 },
      { start: padding.length + 4, end: padding.length + 4 + block.length },
      { start: second, end: second + block.length },
    ];
    expect(imageLoadsOf(images, spans).map((load) => load.tokens)).toEqual([0, 1366, 1366]);
  });
});

describe('the first look for base64 in a request held as pieces', () => {
  /** A text that records the longest slice asked of it. */
  function recording(text: string): { slices: TextSlices; longest: () => number } {
    let longest = 0;
    return {
      slices: {
        length: text.length,
        slice: (start, end = text.length) => {
          longest = Math.max(longest, end - start);
          return text.slice(start, end);
        },
      },
      longest: () => longest,
    };
  }

  it('#36.7 reads a long request in small slices (a slice across pieces is a copy), and finds a marker across their edges', () => {
    const long = 'x'.repeat(3 * LOOK_CHARS);
    const none = recording(long);
    expect(mentionsBase64(none.slices)).toBe(false);
    expect(none.longest()).toBeLessThanOrEqual(LOOK_CHARS + 5);
    for (const at of [0, LOOK_CHARS - 3, 2 * LOOK_CHARS - 6, long.length - 6]) {
      const text = `${long.slice(0, at)}base64${long.slice(at + 6)}`;
      expect(mentionsBase64(recording(text).slices)).toBe(true);
    }
  });
});
