import { describe, expect, it } from 'vitest';
import { anthropicImageBlock, pngBytes } from '../proxy/test-utils/syntheticImages.js';
import { recalledImageParts } from './recalledImages.js';

describe('an image original, read for dense recall', () => {
  it('#34.4 one image block gives its media type, pixel size and exact bytes', () => {
    const bytes = pngBytes(1280, 800, 90_000);
    expect(recalledImageParts(JSON.stringify(anthropicImageBlock(bytes)))).toEqual([
      { kind: 'image', mediaType: 'image/png', size: { width: 1280, height: 800 }, bytes },
    ]);
  });

  it('#34.4 a tool result content list gives its text and image parts in order; other originals none', () => {
    const bytes = pngBytes(64, 32);
    const content = [{ type: 'text', text: 'chart' }, anthropicImageBlock(bytes)];
    expect(recalledImageParts(JSON.stringify(content))).toEqual([
      { kind: 'text', text: 'chart' },
      { kind: 'image', mediaType: 'image/png', size: { width: 64, height: 32 }, bytes },
    ]);
    expect(recalledImageParts('{"opaque":true}')).toBeUndefined();
    expect(recalledImageParts('[{"type":"text","text":"no base64 here"}]')).toBeUndefined();
    expect(recalledImageParts('plain base64 words')).toBeUndefined();
  });
});
