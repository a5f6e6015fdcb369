/**
 * How `dense recall` shows an original that is image content (an image a compaction summary's
 * trace names, or a tool result's content holding images): one line per image with its media
 * type, pixel size and bytes, the text parts as they are; with `--out FILE` the images' bytes
 * written to FILE (several: FILE-2, FILE-3 … before the extension), one line per file written.
 */
import path from 'node:path';

/** One part of an image original, as core's `recalledImageParts` reads it. */
export type ImageOriginalPart =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'image';
      readonly mediaType: string;
      readonly size: { readonly width: number; readonly height: number } | undefined;
      readonly bytes: Buffer;
    };

type ImagePart = Extract<ImageOriginalPart, { kind: 'image' }>;

/** `image/png, 1280×800, 612,345 bytes`. */
export function imageFacts(part: ImagePart): string {
  const pixels =
    part.size === undefined ? 'size unknown' : `${part.size.width}×${part.size.height}`;
  return `${part.mediaType}, ${pixels}, ${part.bytes.length.toLocaleString('en-US')} bytes`;
}

/** The lines printed for an image original without `--out`. */
export function imageOriginalLines(parts: readonly ImageOriginalPart[], id: string): string[] {
  const lines = parts.flatMap((part) =>
    part.kind === 'image' ? [`[image ${imageFacts(part)}]`] : part.text.split('\n'),
  );
  const images = parts.filter((part) => part.kind === 'image').length;
  const what = images === 1 ? 'the image' : `the ${images} images`;
  return [
    ...lines,
    `(dense recall ${id} --out FILE writes ${what}; --json prints the original as stored)`,
  ];
}

/** The files `--out FILE` writes `count` images to. */
export function outFiles(out: string, count: number): string[] {
  const ext = path.extname(out);
  const stem = out.slice(0, out.length - ext.length);
  return Array.from({ length: count }, (_, index) =>
    index === 0 ? out : `${stem}-${index + 1}${ext}`,
  );
}

export type WriteFile = (file: string, bytes: Buffer) => Promise<void>;

/** Writes the images of `parts` under `out`; the lines saying what went where. May throw (I/O). */
export async function writeImageOriginal(
  parts: readonly ImageOriginalPart[],
  out: string,
  write: WriteFile,
): Promise<string[]> {
  const images = parts.filter((part): part is ImagePart => part.kind === 'image');
  const files = outFiles(out, images.length);
  const lines: string[] = [];
  for (const [index, image] of images.entries()) {
    const file = files[index] as string;
    await write(file, image.bytes);
    lines.push(`wrote ${imageFacts(image)} to ${file}`);
  }
  return lines;
}
