import { describe, expect, it } from 'vitest';
import { gifBytes, jpegBytes, pngBytes, webpBytes } from '../test-utils/syntheticImages.js';
import { imageDimensions } from './imageDimensions.js';
import {
  ANTHROPIC_UNKNOWN_IMAGE_TOKENS,
  imageTokens,
  OPENAI_UNKNOWN_IMAGE_TOKENS,
} from './imageTokens.js';

describe('image sizes from header bytes', () => {
  it('#34.4 reads PNG, JPEG (past its metadata), GIF and WebP sizes; anything else is unknown', () => {
    expect(imageDimensions(pngBytes(1280, 800))).toEqual({ width: 1280, height: 800 });
    expect(imageDimensions(jpegBytes(4032, 3024, 20_000))).toEqual({ width: 4032, height: 3024 });
    expect(imageDimensions(gifBytes(320, 240))).toEqual({ width: 320, height: 240 });
    expect(imageDimensions(webpBytes(1024, 768))).toEqual({ width: 1024, height: 768 });
    expect(imageDimensions(Buffer.from('not an image at all, just text'))).toBeUndefined();
    expect(imageDimensions(pngBytes(1280, 800).subarray(0, 20))).toBeUndefined();
  });
});

describe("the providers' image token rules", () => {
  it('#34.4 Anthropic: width × height / 750 after fitting 1568 px and ~1.15 MP; unknown is the most an image costs', () => {
    const anthropic = (width: number, height: number) =>
      imageTokens({ rule: 'anthropic', size: { width, height } });
    expect(anthropic(1280, 800)).toBe(1366);
    expect(anthropic(200, 200)).toBe(54);
    // The docs' largest unresized sizes cost ~1,590; anything larger is scaled to that.
    expect(anthropic(1092, 1092)).toBe(1590);
    expect(anthropic(4032, 3024)).toBeLessThanOrEqual(1600);
    expect(anthropic(784, 1568)).toBeLessThanOrEqual(1640);
    expect(imageTokens({ rule: 'anthropic', size: undefined })).toBe(
      ANTHROPIC_UNKNOWN_IMAGE_TOKENS,
    );
  });

  it('#34.4 OpenAI: 85 + 170 per 512-px tile after fitting 2048 and a 768 shortest side; detail low is 85', () => {
    const openai = (width: number, height: number, detail?: string) =>
      imageTokens({ rule: 'openai', size: { width, height }, detail });
    // The docs' examples: 1024×1024 → 765; 2048×4096 → 1105; low detail → 85.
    expect(openai(1024, 1024)).toBe(765);
    expect(openai(2048, 4096)).toBe(1105);
    expect(openai(4096, 8192, 'low')).toBe(85);
    expect(openai(500, 300)).toBe(85 + 170);
    expect(imageTokens({ rule: 'openai', size: undefined })).toBe(OPENAI_UNKNOWN_IMAGE_TOKENS);
  });
});
