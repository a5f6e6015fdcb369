/**
 * A request's text held as the decoded pieces it was built from: the part of an earlier request's
 * text that a resumed read keeps, then the newly decoded bytes. Joined into one string, the text
 * would be copied whole by V8 on its first character read (for a non-ASCII body, a two-byte copy
 * of several MB per request); a slice inside one piece reads only that piece, so a reader of the
 * new part never touches the kept one. `toString()` joins the pieces, once.
 */
import type { TextSlices } from '../../utils/TextSlices.js';
import { keepThenAppend, type PieceKind, type Pieces } from './keptPieces.js';

export type { TextSlices };

const TEXT: PieceKind<string> = {
  length: (piece) => piece.length,
  head: (piece, units) =>
    2 * units < piece.length ? ownCopy(piece, units) : piece.slice(0, units),
  join: (before, after) => before + after,
};

/**
 * The first `units` characters of `piece` as a string of their own: V8 makes a slice a view that
 * keeps the whole piece alive (here mostly the previous request's system prompt and tools, dropped
 * by the cut), and flattens a concatenation into a new string when one of its characters is read.
 */
function ownCopy(piece: string, units: number): string {
  if (units < 2) return piece.slice(0, units);
  const copy = piece.slice(0, units - 1) + piece.slice(units - 1, units);
  copy.charCodeAt(0);
  return copy;
}

export class SegmentedText implements TextSlices {
  readonly length: number;
  private joined: string | undefined;
  /** The piece the last slice started in (slices mostly move forward through one piece). */
  private last = 0;

  private constructor(
    private readonly pieces: readonly string[],
    /** Offset of each piece's first character, ascending. */
    private readonly starts: readonly number[],
  ) {
    const end = pieces.at(-1);
    this.length = end === undefined ? 0 : (starts.at(-1) as number) + end.length;
    if (pieces.length === 1) this.joined = pieces[0];
  }

  static of(text: string): SegmentedText {
    return new SegmentedText([text], [0]);
  }

  /** Pieces held (for tests: a resumed text must not grow them without bound). */
  get pieceCount(): number {
    return this.pieces.length;
  }

  /**
   * The first `chars` characters of this text followed by `tail` (a string, or the pieces it was
   * decoded in, each starting with a `{`), as `keepThenAppend` keeps them (merges are lazy: V8
   * copies a merged piece when it is first sliced). Pieces held: at most `MAX_PIECES`, or the
   * tail's count past that.
   */
  withTail(chars: number, tail: string | readonly string[]): SegmentedText {
    const kept = keepThenAppend(TEXT, this.kept(), chars, typeof tail === 'string' ? [tail] : tail);
    return new SegmentedText(kept.pieces, kept.starts);
  }

  private kept(): Pieces<string> & { readonly length: number } {
    return { pieces: this.pieces, starts: this.starts, length: this.length };
  }

  slice(start: number, end: number = this.length): string {
    if (this.joined !== undefined) return this.joined.slice(start, end);
    const from = Math.max(0, Math.min(start, this.length));
    const to = Math.max(from, Math.min(end, this.length));
    const index = this.pieceAt(from);
    const pieceStart = this.starts[index] as number;
    const piece = this.pieces[index] as string;
    // Mostly inside one piece: that piece's slice, no array.
    if (to <= pieceStart + piece.length) return piece.slice(from - pieceStart, to - pieceStart);
    return this.parts(from, to).join('');
  }

  /** `slice(start, end)` as the slices of the pieces it spans (joined, they are it). */
  parts(start: number, end: number = this.length): string[] {
    const from = Math.max(0, Math.min(start, this.length));
    const to = Math.max(from, Math.min(end, this.length));
    const parts: string[] = [];
    for (let index = this.pieceAt(from); index < this.pieces.length; index++) {
      const pieceStart = this.starts[index] as number;
      if (pieceStart >= to && parts.length > 0) break;
      const piece = this.pieces[index] as string;
      parts.push(piece.slice(Math.max(0, from - pieceStart), to - pieceStart));
    }
    return parts;
  }

  /** UTF-8 bytes of `slice(start, end)`, counted piece by piece. */
  byteLength(start: number, end: number = this.length): number {
    let bytes = 0;
    for (const part of this.parts(start, end)) bytes += Buffer.byteLength(part, 'utf8');
    return bytes;
  }

  /**
   * Offsets of the matches of global `pattern`, found piece by piece without joining: only for a
   * pattern whose match cannot hold a `{` (every piece starts with a `{`: a message's first
   * character, or one the new text of a resumed read was cut before).
   */
  matchOffsets(pattern: RegExp): number[] {
    const offsets: number[] = [];
    for (const [index, piece] of this.pieces.entries()) {
      const start = this.starts[index] as number;
      for (const match of piece.matchAll(pattern)) offsets.push(start + match.index);
    }
    return offsets;
  }

  toString(): string {
    this.joined ??= this.pieces.join('');
    return this.joined;
  }

  /** Index of the piece holding character `offset` (the last piece for the end). */
  private pieceAt(offset: number): number {
    const { starts } = this;
    if (
      (starts[this.last] as number) <= offset &&
      (this.last + 1 >= starts.length || offset < (starts[this.last + 1] as number))
    ) {
      return this.last;
    }
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((starts[middle] as number) <= offset) low = middle;
      else high = middle - 1;
    }
    this.last = low;
    return low;
  }
}
