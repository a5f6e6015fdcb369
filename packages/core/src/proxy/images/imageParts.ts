/**
 * Image content parts of the three wire shapes, recognized in parsed JSON: an Anthropic `image`
 * block with a base64 source, an OpenAI Chat `image_url` part or a Responses `input_image` part
 * holding a `data:` URL. Each gives its media type and its base64; parts given by URL (no bytes
 * in the request) are not image parts here. Pure; never throws.
 */
import { imageDimensions, type ImageSize } from './imageDimensions.js';

export interface ImagePart {
  readonly mediaType: string;
  readonly base64: string;
  /** OpenAI's `detail`, when given. */
  readonly detail?: string;
}

type Json = Readonly<Record<string, unknown>>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function stringOf(value: unknown, key: string): string | undefined {
  const member = isRecord(value) ? value[key] : undefined;
  return typeof member === 'string' ? member : undefined;
}

const DATA_URL = /^data:(image\/[A-Za-z0-9.+-]+);base64,/;

function fromDataUrl(url: string | undefined, detail: string | undefined): ImagePart | undefined {
  const match = url === undefined ? null : DATA_URL.exec(url);
  if (match === null || url === undefined) return undefined;
  const part = { mediaType: match[1] as string, base64: url.slice(match[0].length) };
  return detail === undefined ? part : { ...part, detail };
}

/** `value` as an image part with base64 bytes, or undefined. */
export function imagePartOf(value: unknown): ImagePart | undefined {
  if (!isRecord(value)) return undefined;
  switch (value.type) {
    case 'image': {
      const source = value.source;
      const mediaType = stringOf(source, 'media_type');
      const base64 = stringOf(source, 'data');
      if (stringOf(source, 'type') !== 'base64' || mediaType === undefined) return undefined;
      return base64 === undefined ? undefined : { mediaType, base64 };
    }
    case 'image_url': {
      const inner = value.image_url;
      const url = typeof inner === 'string' ? inner : stringOf(inner, 'url');
      return fromDataUrl(url, stringOf(inner, 'detail') ?? stringOf(value, 'detail'));
    }
    case 'input_image':
      return fromDataUrl(stringOf(value, 'image_url'), stringOf(value, 'detail'));
    default:
      return undefined;
  }
}

/** Every image part inside `value` (any depth: message content, tool results), in order. */
export function imagePartsIn(value: unknown): ImagePart[] {
  const found: ImagePart[] = [];
  const visit = (node: unknown): void => {
    const part = imagePartOf(node);
    if (part !== undefined) found.push(part);
    else if (Array.isArray(node)) node.forEach(visit);
    else if (isRecord(node)) Object.values(node).forEach(visit);
  };
  visit(value);
  return found;
}

/** The image's bytes. */
export function imageBytesOf(part: ImagePart): Buffer {
  return Buffer.from(part.base64, 'base64');
}

/** Base64 characters decoded first to read a size (a multiple of 4). */
const HEAD_CHARS = 1 << 16;

/** The image's pixel size from its header bytes (all of them only when the head is not enough). */
export function imagePartSize(part: ImagePart): ImageSize | undefined {
  const head = imageDimensions(Buffer.from(part.base64.slice(0, HEAD_CHARS), 'base64'));
  if (head !== undefined || part.base64.length <= HEAD_CHARS) return head;
  return imageDimensions(Buffer.from(part.base64, 'base64'));
}
