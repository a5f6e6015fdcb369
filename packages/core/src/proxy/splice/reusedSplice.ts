/**
 * The request body with the pointers written in, as chunks to send (long unchanged stretches as
 * views of the client's bytes), and the characters the pointers take out, in one pass that starts
 * where the previous request of the conversation can vouch for: the read cache hands a request the previous request's site objects
 * for the messages whose bytes it verified, so a leading run of the very same pointer sites means
 * the same bytes, the same pointers and the same chunks up to there. Only the rest is computed.
 */
import type { ByteAnchors } from '../wire/byteAnchors.js';
import type { TextSlices } from '../wire/segmentedText.js';
import {
  anchorBefore,
  charsTakenOut,
  orderedSites,
  pointerBytes,
  VIEW_BYTES,
  type PointerSite,
} from './spliceEdits.js';

/**
 * A run of small parts is joined into a chunk of its own once it reaches this many bytes. The next
 * request resumes at the end of a complete chunk, so it copies (and, for non-ASCII text, measures
 * in bytes) up to this much of the body again; a smaller run only means more chunks to write.
 */
export const JOIN_BYTES = 128 * 1024;

/** A chunk as the memo keeps it: bytes it owns, or a range of the body (never the body itself). */
type KeptChunk = Buffer | { readonly start: number; readonly end: number };

/** A point where every chunk before it was complete. */
interface Checkpoint {
  /** Sites (in text order) fully written before this point. */
  readonly sites: number;
  /** Chunks before this point. */
  readonly chunks: number;
  readonly chars: number;
  readonly bytes: number;
  /** Characters the first `sites` pointers take out. */
  readonly removed: number;
}

/** What one splice leaves for the next request of the conversation. */
export interface SpliceMemo {
  readonly sites: readonly PointerSite[];
  readonly chunks: readonly KeptChunk[];
  readonly checkpoints: readonly Checkpoint[];
}

export interface ReusedSplice {
  readonly chunks: Buffer[];
  readonly removedChars: number;
  readonly memo: SpliceMemo;
}

/** The last checkpoint the current sites allow: the sites before it are the previous ones. */
function resumePoint(
  ordered: readonly PointerSite[],
  previous: SpliceMemo | undefined,
): Checkpoint | undefined {
  if (previous === undefined) return undefined;
  let same = 0;
  while (
    same < ordered.length &&
    same < previous.sites.length &&
    ordered[same] === previous.sites[same]
  )
    same++;
  for (let index = previous.checkpoints.length - 1; index >= 0; index--) {
    const point = previous.checkpoints[index] as Checkpoint;
    // Before a site, that site must be a kept one too (its bytes verified); at a site's end, it.
    const verified =
      point.sites < same ||
      (point.sites === same &&
        point.sites > 0 &&
        point.chars === (previous.sites[point.sites - 1] as PointerSite).end);
    const next = ordered[point.sites];
    if (verified && (next === undefined || next.start >= point.chars)) return point;
  }
  return undefined;
}

/** Where this splice starts: the previous one's chunks and checkpoints before its resume point. */
function resumed(ordered: readonly PointerSite[], previous: SpliceMemo | undefined) {
  const point = resumePoint(ordered, previous);
  if (previous === undefined || point === undefined) {
    return { chunks: [], checkpoints: [], cursor: { chars: 0, bytes: 0 }, removed: 0, sites: 0 };
  }
  return {
    chunks: previous.chunks.slice(0, point.chunks),
    checkpoints: previous.checkpoints.filter((kept) => kept.chunks <= point.chunks),
    cursor: { chars: point.chars, bytes: point.bytes },
    removed: point.removed,
    sites: point.sites,
  };
}

/** Chunks as they are written: runs of small parts joined, parts of `VIEW_BYTES` or more alone. */
class ChunkWriter {
  private run: KeptChunk[] = [];
  runBytes = 0;

  constructor(
    private readonly body: Buffer,
    readonly chunks: KeptChunk[],
  ) {}

  push(part: KeptChunk): void {
    const length = Buffer.isBuffer(part) ? part.length : part.end - part.start;
    if (length >= VIEW_BYTES) {
      this.flush();
      this.chunks.push(part);
    } else if (length > 0) {
      this.run.push(part);
      this.runBytes += length;
    }
  }

  flush(): void {
    const { run } = this;
    if (run.length === 1) this.chunks.push(run[0] as KeptChunk);
    else if (run.length > 1) {
      this.chunks.push(Buffer.concat(run.map((part) => bytesOf(this.body, part))));
    }
    this.run = [];
    this.runBytes = 0;
  }
}

/** Byte offset of character `offset`, counted from `from` or a later anchor, whichever is nearer. */
function byteAt(
  text: TextSlices,
  anchors: ByteAnchors | undefined,
  from: { readonly chars: number; readonly bytes: number },
  offset: number,
): number {
  let start = from;
  const anchor = anchors === undefined ? -1 : anchorBefore(anchors.chars, offset);
  if (anchors !== undefined && anchor >= 0 && (anchors.chars[anchor] as number) > from.chars) {
    start = { chars: anchors.chars[anchor] as number, bytes: anchors.bytes[anchor] as number };
  }
  return start.bytes + Buffer.byteLength(text.slice(start.chars, offset), 'utf8');
}

/**
 * The body `text` was decoded from with the pointers at `sites` written in, as chunks (the same
 * bytes as `Buffer.from(spliceEdits(text, sites).text)`), the characters the pointers take out
 * (as `spliceEdits` reports them), and the memo for the next request. `previous` is the memo of the request this
 * one's read resumed from.
 */
export function reusedSplice(
  body: Buffer,
  text: TextSlices,
  sites: readonly PointerSite[],
  options: {
    readonly anchors?: ByteAnchors;
    readonly previous?: SpliceMemo;
    /** Bytes at which a run of small parts becomes a chunk (`JOIN_BYTES`). */
    readonly joinBytes?: number;
  },
): ReusedSplice {
  const ordered = orderedSites(sites);
  const { anchors, previous, joinBytes = JOIN_BYTES } = options;
  const start = resumed(ordered, previous);
  const writer = new ChunkWriter(body, start.chunks);
  const { checkpoints, cursor } = start;
  let { removed } = start;
  // Every character is one byte when the lengths agree (ASCII): offsets need no counting.
  const ascii = body.length === text.length;
  const bytesTo = (offset: number) => (ascii ? offset : byteAt(text, anchors, cursor, offset));
  const mark = (next: number) => {
    checkpoints.push({ sites: next, chunks: writer.chunks.length, ...cursor, removed });
  };
  for (let index = start.sites; index < ordered.length; index++) {
    const site = ordered[index] as PointerSite;
    const siteStart = bytesTo(site.start);
    writer.push({ start: cursor.bytes, end: siteStart });
    const gap = siteStart - cursor.bytes;
    cursor.chars = site.start;
    cursor.bytes = siteStart;
    if (gap >= VIEW_BYTES) mark(index);
    cursor.bytes = bytesTo(site.end);
    cursor.chars = site.end;
    writer.push(pointerBytes(site));
    removed += charsTakenOut(site);
    if (writer.runBytes >= joinBytes) {
      writer.flush();
      mark(index + 1);
    }
  }
  writer.push({ start: cursor.bytes, end: body.length });
  writer.flush();
  const kept = writer.chunks;
  return {
    chunks: kept.map((chunk) => bytesOf(body, chunk)),
    removedChars: removed,
    memo: { sites: ordered, chunks: kept, checkpoints },
  };
}

function bytesOf(body: Buffer, chunk: KeptChunk): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : body.subarray(chunk.start, chunk.end);
}
