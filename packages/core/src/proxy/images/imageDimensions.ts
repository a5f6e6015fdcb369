/**
 * An image's pixel size read from its own header bytes (PNG, JPEG, GIF, WebP), without decoding
 * it. Pure; never throws: bytes it cannot read give `undefined`.
 */

export interface ImageSize {
  readonly width: number;
  readonly height: number;
}

function positive(width: number, height: number): ImageSize | undefined {
  return width > 0 && height > 0 ? { width, height } : undefined;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function png(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  if (bytes.length < 24 || !PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) return undefined;
  // The IHDR chunk comes first: width and height, big-endian, at 16 and 20.
  return positive(view.getUint32(16), view.getUint32(20));
}

function gif(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  const magic = String.fromCharCode(...bytes.subarray(0, 6));
  if (bytes.length < 10 || (magic !== 'GIF87a' && magic !== 'GIF89a')) return undefined;
  return positive(view.getUint16(6, true), view.getUint16(8, true));
}

/** Start-of-frame markers (baseline, progressive, lossless…), not DHT (C4), JPG (C8), DAC (CC). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpeg(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let at = 2;
  while (at + 9 < bytes.length) {
    if (bytes[at] !== 0xff) return undefined;
    const marker = bytes[at + 1] as number;
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (isStartOfFrame(marker)) return positive(view.getUint16(at + 7), view.getUint16(at + 5));
    if (marker === 0xd9 || marker === 0xda) return undefined;
    at += 2 + view.getUint16(at + 2);
  }
  return undefined;
}

function webp(bytes: Uint8Array, view: DataView): ImageSize | undefined {
  const tag = (from: number) => String.fromCharCode(...bytes.subarray(from, from + 4));
  if (bytes.length < 30 || tag(0) !== 'RIFF' || tag(8) !== 'WEBP') return undefined;
  switch (tag(12)) {
    case 'VP8 ':
      return positive(view.getUint16(26, true) & 0x3fff, view.getUint16(28, true) & 0x3fff);
    case 'VP8L': {
      const bits = view.getUint32(21, true);
      return positive((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
    }
    case 'VP8X': {
      const width =
        (bytes[24] as number) | ((bytes[25] as number) << 8) | ((bytes[26] as number) << 16);
      const height =
        (bytes[27] as number) | ((bytes[28] as number) << 8) | ((bytes[29] as number) << 16);
      return positive(width + 1, height + 1);
    }
    default:
      return undefined;
  }
}

/** The pixel size of a PNG, JPEG, GIF or WebP image; `undefined` for anything else. */
export function imageDimensions(bytes: Uint8Array): ImageSize | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  try {
    return png(bytes, view) ?? jpeg(bytes, view) ?? gif(bytes, view) ?? webp(bytes, view);
  } catch {
    return undefined;
  }
}
