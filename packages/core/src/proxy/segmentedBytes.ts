/**
 * The bytes of a kept request body as pieces: the part of an earlier body that a resumed read
 * keeps, then a copy of the request's new bytes. A read that resumes so keeps only what is new,
 * never the request's own buffer: that buffer dies with the request, young, instead of being kept
 * until the next request and then dying in the old generation (where the collector frees it only
 * with a mark-compact, which several MB of such garbage per request brings on every few requests).
 */

/** The largest piece merging makes (a copy well under a millisecond). */
export const MAX_MERGED_BYTES = 1 << 20;

export class SegmentedBytes {
  readonly length: number;

  private constructor(
    private readonly pieces: readonly Buffer[],
    /** Offset of each piece's first byte, ascending. */
    private readonly starts: readonly number[],
  ) {
    const end = pieces.at(-1);
    this.length = end === undefined ? 0 : (starts.at(-1) as number) + end.length;
  }

  /** Holds `bytes` itself (no copy): the caller must not change them while this is kept. */
  static of(bytes: Buffer): SegmentedBytes {
    return new SegmentedBytes([bytes], [0]);
  }

  /** Pieces held (for tests: a resumed body must not grow them without bound). */
  get pieceCount(): number {
    return this.pieces.length;
  }

  /** The memory the pieces are views of (shared between bodies that share pieces). */
  get backings(): readonly ArrayBufferLike[] {
    return this.pieces.map((piece) => piece.buffer);
  }

  /** Bytes of memory `bodies` hold, each backing counted once however many bodies share it. */
  static heldBytes(bodies: Iterable<SegmentedBytes>): number {
    const backings = new Set<ArrayBufferLike>();
    for (const body of bodies) for (const backing of body.backings) backings.add(backing);
    let bytes = 0;
    for (const backing of backings) bytes += backing.byteLength;
    return bytes;
  }

  /**
   * The first `bytes` bytes of this body followed by a copy of `tail`. The last two pieces are
   * merged while the earlier is at most twice the later and the merged piece stays within
   * `MAX_MERGED_BYTES`: a byte is copied O(log length) times over a conversation, never the whole
   * body per request.
   */
  withTail(bytes: number, tail: Buffer): SegmentedBytes {
    const pieces: Buffer[] = [];
    const starts: number[] = [];
    for (let index = 0; index < this.pieces.length; index++) {
      const start = this.starts[index] as number;
      if (start >= bytes) break;
      const piece = this.pieces[index] as Buffer;
      pieces.push(start + piece.length <= bytes ? piece : piece.subarray(0, bytes - start));
      starts.push(start);
    }
    if (tail.length > 0 || pieces.length === 0) {
      pieces.push(Buffer.from(tail));
      starts.push(Math.min(bytes, this.length));
    }
    while (pieces.length >= 2) {
      const after = pieces.at(-1) as Buffer;
      const before = pieces.at(-2) as Buffer;
      if (before.length > 2 * after.length) break;
      if (before.length + after.length > MAX_MERGED_BYTES) break;
      pieces.splice(-2, 2, Buffer.concat([before, after]));
      starts.pop();
    }
    return new SegmentedBytes(pieces, starts);
  }

  /** Whether the first `bytes` bytes of `body` are this body's first `bytes` bytes. */
  startsLike(body: Buffer, bytes: number): boolean {
    if (bytes > this.length || bytes > body.length) return false;
    for (let index = 0; index < this.pieces.length; index++) {
      const start = this.starts[index] as number;
      if (start >= bytes) break;
      const piece = this.pieces[index] as Buffer;
      const count = Math.min(piece.length, bytes - start);
      if (body.compare(piece, 0, count, start, start + count) !== 0) return false;
    }
    return true;
  }
}
