/**
 * The rule both kept bodies follow (`SegmentedText` over decoded text, `SegmentedBytes` over the
 * body's bytes): keep the first `keep` units of the earlier pieces, add the new tail as a piece of
 * its own, and past `MAX_PIECES` merge the adjacent pair of earlier pieces that is shortest
 * together. A request copies nothing it does not add: the new tail is never merged on arrival (it
 * is the part the request's reader reads at once, and a merged text piece would be copied whole by
 * V8 on its first read), and a conversation merges only once it has more pieces than the cap, one
 * pair a request, each about `2 × length / MAX_PIECES` units.
 */

/** How a kind of piece is measured, cut and joined. */
export interface PieceKind<T> {
  readonly length: (piece: T) => number;
  /** The first `units` of `piece`, holding no more than twice their size of memory. */
  readonly head: (piece: T, units: number) => T;
  readonly join: (before: T, after: T) => T;
}

export interface Pieces<T> {
  readonly pieces: readonly T[];
  /** Offset of each piece's first unit, ascending. */
  readonly starts: readonly number[];
}

/** The most pieces a kept body holds (each lookup and append walks them). */
export const MAX_PIECES = 64;

export function keepThenAppend<T>(
  kind: PieceKind<T>,
  earlier: Pieces<T> & { readonly length: number },
  keep: number,
  tail: T,
): Pieces<T> {
  const pieces: T[] = [];
  const starts: number[] = [];
  for (let index = 0; index < earlier.pieces.length; index++) {
    const start = earlier.starts[index] as number;
    if (start >= keep) break;
    const piece = earlier.pieces[index] as T;
    pieces.push(start + kind.length(piece) <= keep ? piece : kind.head(piece, keep - start));
    starts.push(start);
  }
  if (kind.length(tail) > 0 || pieces.length === 0) {
    pieces.push(tail);
    starts.push(Math.min(keep, earlier.length));
  }
  while (pieces.length > MAX_PIECES) mergeShortestPair(kind, pieces, starts);
  return { pieces, starts };
}

/** Merges the adjacent pair before the newest piece that is shortest together. */
function mergeShortestPair<T>(kind: PieceKind<T>, pieces: T[], starts: number[]): void {
  let best = 0;
  let bestLength = Infinity;
  for (let index = 0; index + 2 < pieces.length; index++) {
    const length = kind.length(pieces[index] as T) + kind.length(pieces[index + 1] as T);
    if (length < bestLength) {
      best = index;
      bestLength = length;
    }
  }
  pieces.splice(best, 2, kind.join(pieces[best] as T, pieces[best + 1] as T));
  starts.splice(best + 1, 1);
}
