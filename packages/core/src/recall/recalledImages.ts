/**
 * An original that is image content, read for `dense recall`: one image part (what a compaction
 * summary's image trace names) or a list of content parts holding images (a tool result's content).
 * Each part as text or as an image with its media type, pixel size and bytes, so the CLI can
 * print a line for it and write its bytes to a file. Pure; never throws.
 */
import type { ImageSize } from '../proxy/images/imageDimensions.js';
import { imageBytesOf, imagePartOf, imagePartSize } from '../proxy/images/imageParts.js';

export type RecalledPart =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'image';
      readonly mediaType: string;
      readonly size: ImageSize | undefined;
      readonly bytes: Buffer;
    };

function parsed(text: string): unknown {
  const start = text.trimStart()[0];
  if ((start !== '{' && start !== '[') || !text.includes('base64')) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function partOf(value: unknown): RecalledPart {
  const image = imagePartOf(value);
  if (image !== undefined) {
    const size = imagePartSize(image);
    return { kind: 'image', mediaType: image.mediaType, size, bytes: imageBytesOf(image) };
  }
  const text = (value as { text?: unknown } | null)?.text;
  return { kind: 'text', text: typeof text === 'string' ? text : JSON.stringify(value) };
}

/** The parts of an image original, or undefined when `text` holds no image part. */
export function recalledImageParts(text: string): RecalledPart[] | undefined {
  const value = parsed(text);
  const parts = (Array.isArray(value) ? value : [value]).map(partOf);
  return value !== undefined && parts.some((part) => part.kind === 'image') ? parts : undefined;
}
