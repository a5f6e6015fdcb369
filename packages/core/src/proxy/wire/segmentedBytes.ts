/**
 * The bytes of a kept request body as pieces: the part of an earlier body that a resumed read
 * keeps, then a copy of the request's new bytes. A read that resumes so keeps only what is new,
 * never the request's own buffer: that buffer dies with the request, young, instead of being kept
 * until the next request and then dying in the old generation (where the collector frees it only
 * with a mark-compact, which several MB of such garbage per request brings on every few requests).
 */

import { keepThenAppend, type PieceKind, type Pieces } from './keptPieces.js';

const BYTES: PieceKind<Buffer> = {
  length: (piece) => piece.length,
  // A view keeps the whole piece's memory: copied when it is less than half of it.
  head: (piece, units) =>
    2 * units < piece.length ? Buffer.from(piece.subarray(0, units)) : piece.subarray(0, units),
  join: (before, after) => Buffer.concat([before, after]),
};

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
   * The first `bytes` bytes of this body followed by a copy of `tail`, as `keepThenAppend` keeps
   * them (at most `MAX_PIECES` pieces).
   */
  withTail(bytes: number, tail: Buffer): SegmentedBytes {
    const kept = keepThenAppend(BYTES, this.kept(), bytes, [Buffer.from(tail)]);
    return new SegmentedBytes(kept.pieces, kept.starts);
  }

  private kept(): Pieces<Buffer> & { readonly length: number } {
    return { pieces: this.pieces, starts: this.starts, length: this.length };
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
