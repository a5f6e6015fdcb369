/**
 * Synthetic image bytes for the image-sizing tests: a valid header of the given pixel size, then
 * filler up to the byte size asked for (a pasted screenshot's weight without a real picture).
 */

function filler(bytes: number, seed: number): Buffer {
  const out = Buffer.alloc(Math.max(0, bytes));
  let state = seed;
  for (let i = 0; i < out.length; i++) {
    state = (state * 1_103_515_245 + 12_345) >>> 0;
    out[i] = state >>> 24;
  }
  return out;
}

/** A PNG signature and IHDR chunk for `width`×`height`, padded to `bytes`. */
export function pngBytes(width: number, height: number, bytes = 64): Buffer {
  const head = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'latin1');
  head.writeUInt32BE(width, 16);
  head.writeUInt32BE(height, 20);
  head.set([8, 6, 0, 0, 0], 24);
  return Buffer.concat([head, filler(bytes - head.length, width ^ height)]);
}

/** A JPEG with an APP1 segment of `appBytes` before its baseline frame header. */
export function jpegBytes(width: number, height: number, appBytes = 16): Buffer {
  const app = Buffer.alloc(4 + appBytes);
  app.set([0xff, 0xe1]);
  app.writeUInt16BE(appBytes + 2, 2);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 0x08, 0, 0, 0, 0, 0x03]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app, sof, filler(32, 7)]);
}

export function gifBytes(width: number, height: number): Buffer {
  const head = Buffer.alloc(13);
  head.write('GIF89a', 0, 'latin1');
  head.writeUInt16LE(width, 6);
  head.writeUInt16LE(height, 8);
  return head;
}

/** A lossless (VP8L) WebP header. */
export function webpBytes(width: number, height: number): Buffer {
  const head = Buffer.alloc(30);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(22, 4);
  head.write('WEBPVP8L', 8, 'latin1');
  head.writeUInt32LE(9, 16);
  head[20] = 0x2f;
  head.writeUInt32LE(((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14), 21);
  return head;
}

/** An Anthropic image block holding `bytes` as base64. */
export function anthropicImageBlock(bytes: Buffer, mediaType = 'image/png') {
  return {
    type: 'image',
    source: { type: 'base64', media_type: mediaType, data: bytes.toString('base64') },
  };
}
