/**
 * The decompressor for a reply's `Content-Encoding`, chosen from the header and the body's first
 * bytes: gzip (and `x-gzip`), br, and deflate, zlib-wrapped as HTTP specifies or raw as some
 * servers send it (told apart by the zlib header's check bits). Identity needs none; any other
 * coding, or more than one, is unsupported (the reply is then not metered).
 */
import * as zlib from 'node:zlib';

type DecoderStream = zlib.Gunzip | zlib.BrotliDecompress | zlib.Inflate | zlib.InflateRaw;

export type ContentDecoder =
  | { readonly kind: 'identity' }
  | { readonly kind: 'decode'; readonly stream: DecoderStream }
  | { readonly kind: 'unsupported'; readonly coding: string };

/** Whether `head` opens a zlib stream (RFC 1950: deflate method, header a multiple of 31). */
function isZlibHeader(head: Buffer): boolean {
  const cmf = head[0];
  const flg = head[1];
  if (cmf === undefined || flg === undefined) return true;
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && (cmf * 256 + flg) % 31 === 0;
}

/** The codings applied to the body, in order, `identity` left out. */
export function contentCodings(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
}

/**
 * A decoder for a body sent with `header`, whose first bytes are `head` (the first chunk; only
 * deflate looks at it). Each call makes a new stream.
 */
export function contentDecoder(header: string | undefined, head: Buffer): ContentDecoder {
  const codings = contentCodings(header);
  if (codings.length === 0) return { kind: 'identity' };
  const [coding] = codings;
  if (codings.length > 1 || coding === undefined) {
    return { kind: 'unsupported', coding: codings.join(', ') };
  }
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return { kind: 'decode', stream: zlib.createGunzip() };
    case 'br':
      return { kind: 'decode', stream: zlib.createBrotliDecompress() };
    case 'deflate':
      return {
        kind: 'decode',
        stream: isZlibHeader(head) ? zlib.createInflate() : zlib.createInflateRaw(),
      };
    default:
      return { kind: 'unsupported', coding };
  }
}
