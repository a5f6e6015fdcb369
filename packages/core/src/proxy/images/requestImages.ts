/**
 * Room `images/`: images in requests and their token cost; imports no other room.
 *
 * The base64 images a request's JSON text carries, found without parsing it: Anthropic image
 * sources (`"data"` beside an `image/*` `media_type`) and OpenAI data URLs (`image_url`,
 * `input_image`: `data:image/…;base64,`). Each with where its base64 sits, its media type, pixel
 * size (from its header bytes) and prompt tokens (`imageTokens`), so whatever sizes a request can
 * count the image by the provider's rule instead of its characters. Images given by URL carry no
 * bytes here and are left to the text count. Pure; never throws.
 */
import type { TextSlices } from '../../utils/TextSlices.js';
import { imageDimensions, type ImageSize } from './imageDimensions.js';
import { imageTokens, type ImageTokenRule } from './imageTokens.js';

export interface RequestImage {
  /** Span of the base64 characters in the text. */
  readonly start: number;
  readonly end: number;
  readonly mediaType: string;
  readonly size: ImageSize | undefined;
  readonly rule: ImageTokenRule;
  readonly tokens: number;
}

/** Base64 characters and prompt tokens of the images in some part of a request. */
export interface ImageLoad {
  readonly chars: number;
  readonly tokens: number;
}

export const NO_IMAGES: ImageLoad = { chars: 0, tokens: 0 };

const CHUNK = 1 << 20;
/** Characters around a marker searched for its object's `media_type` or `detail`. */
const NEAR = 400;
/** Base64 characters decoded to read a header (a JPEG's frame may sit after its metadata). */
const HEADER_CHARS = 1 << 16;
const MARKERS = /"data"\s*:\s*"|data:(image\/[A-Za-z0-9.+-]+);base64,/g;
const MEDIA_TYPE = /"media_type"\s*:\s*"(image\/[A-Za-z0-9.+-]+)"/;
const DETAIL = /"detail"\s*:\s*"([a-z]+)"/;

/** Offset of the next `"` at or after `from` (the end of a JSON string's base64), or the length. */
function quoteFrom(text: TextSlices, from: number): number {
  for (let at = from; at < text.length; at += CHUNK) {
    const found = text.slice(at, Math.min(text.length, at + CHUNK)).indexOf('"');
    if (found >= 0) return at + found;
  }
  return text.length;
}

function decoded(base64: string): Buffer {
  return Buffer.from(base64.includes('\\') ? base64.replaceAll('\\/', '/') : base64, 'base64');
}

function sizeOf(text: TextSlices, start: number, end: number): ImageSize | undefined {
  const head = imageDimensions(decoded(text.slice(start, Math.min(end, start + HEADER_CHARS))));
  if (head !== undefined || end - start <= HEADER_CHARS) return head;
  return imageDimensions(decoded(text.slice(start, end)));
}

/** The text around a marker, within its own object (not past the braces that bound it). */
function around(text: TextSlices, at: number, end: number): string {
  const before = text.slice(Math.max(0, at - NEAR), at);
  const after = text.slice(end, Math.min(text.length, end + NEAR));
  const open = before.lastIndexOf('{');
  const close = after.indexOf('}');
  return `${open < 0 ? before : before.slice(open)} ${close < 0 ? after : after.slice(0, close)}`;
}

function imageAt(
  text: TextSlices,
  marker: RegExpExecArray,
  offset: number,
): RequestImage | undefined {
  const at = offset + marker.index;
  const start = at + marker[0].length;
  const end = quoteFrom(text, start);
  const near = around(text, at, end);
  const dataUrl = marker[1];
  const mediaType = dataUrl ?? MEDIA_TYPE.exec(near)?.[1];
  if (mediaType === undefined || end - start < 16) return undefined;
  const size = sizeOf(text, start, end);
  const rule: ImageTokenRule = dataUrl === undefined ? 'anthropic' : 'openai';
  const detail = DETAIL.exec(near)?.[1];
  return { start, end, mediaType, size, rule, tokens: imageTokens({ rule, size, detail }) };
}

/**
 * Characters the first look reads at a time. A resumed request's text is pieces (`SegmentedText`):
 * a slice inside one piece is a view of it, one across pieces a copy; small slices keep the copies
 * small (a slice of the whole request copied hundreds of KB on every request).
 */
export const LOOK_CHARS = 1 << 15;

/** Whether the text says `base64` anywhere (every image form here does): the cheap first look. */
export function mentionsBase64(text: TextSlices): boolean {
  for (let at = 0; at < text.length; at += LOOK_CHARS) {
    const end = Math.min(text.length, at + LOOK_CHARS);
    if (text.slice(Math.max(0, at - 5), end).includes('base64')) return true;
  }
  return false;
}

/** The base64 images of a request's text, in text order. */
export function requestImages(text: TextSlices): RequestImage[] {
  const images: RequestImage[] = [];
  if (!mentionsBase64(text)) return images;
  let from = 0;
  while (from < text.length) {
    // Markers are short: a chunk read a little past its end sees one that straddles it.
    const to = Math.min(text.length, from + CHUNK);
    const chunk = text.slice(from, Math.min(text.length, to + 64));
    MARKERS.lastIndex = 0;
    let next = to;
    for (let marker = MARKERS.exec(chunk); marker !== null; marker = MARKERS.exec(chunk)) {
      if (from + marker.index >= to) break;
      if (from + marker.index < (images.at(-1)?.end ?? 0)) continue;
      const image = imageAt(text, marker, from);
      if (image === undefined) continue;
      images.push(image);
      if (image.end >= to) {
        next = image.end;
        break;
      }
      MARKERS.lastIndex = image.end - from;
    }
    from = next;
  }
  return images;
}

/** The images' load inside each span (spans in text order, not overlapping). */
export function imageLoadsOf(
  images: readonly RequestImage[],
  spans: readonly { readonly start: number; readonly end: number }[],
): ImageLoad[] {
  let next = 0;
  return spans.map((span) => {
    let chars = 0;
    let tokens = 0;
    while (next < images.length && (images[next] as RequestImage).start < span.start) next++;
    for (; next < images.length && (images[next] as RequestImage).end <= span.end; next++) {
      const image = images[next] as RequestImage;
      chars += image.end - image.start;
      tokens += image.tokens;
    }
    return chars === 0 ? NO_IMAGES : { chars, tokens };
  });
}

/** The load of all of a text's images. */
export function imageLoadOf(text: TextSlices): ImageLoad {
  let chars = 0;
  let tokens = 0;
  for (const image of requestImages(text)) {
    chars += image.end - image.start;
    tokens += image.tokens;
  }
  return chars === 0 ? NO_IMAGES : { chars, tokens };
}

/** `imageLoadOf` for a body as bytes (one buffer or its chunks); cheap when it holds no base64. */
export function bodyImageLoad(body: Buffer | readonly Buffer[]): ImageLoad {
  const buffers = Buffer.isBuffer(body) ? [body] : body;
  if (!buffers.some((buffer) => buffer.includes('base64'))) return NO_IMAGES;
  // Latin-1 maps each byte to one character: base64 and JSON punctuation keep their offsets.
  return imageLoadOf(Buffer.concat(buffers).toString('latin1'));
}

/**
 * Characters that stand for `load`'s tokens in a count made at `tokensPerChar`: what a span's
 * length changes by when its images are counted by their rule instead of as text.
 */
export function imageCharDelta(load: ImageLoad, tokensPerChar: number): number {
  if (load.chars === 0) return 0;
  return Math.ceil(load.tokens / tokensPerChar) - load.chars;
}
