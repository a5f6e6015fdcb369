/**
 * The rule both kept bodies follow (`SegmentedText` over decoded text, `SegmentedBytes` over the
 * body's bytes): keep the first `keep` units of the earlier pieces, add the new tail as pieces of
 * its own (one, or the few it was decoded in), and past `MAX_PIECES` merge the adjacent pair of
 * earlier pieces that is shortest together. A request copies nothing it does not add: the new
 * tail is never merged on arrival (it is the part the request's reader reads at once, and a
 * merged text piece would be copied whole by V8 on its first read), and a conversation merges only
 * once it has more pieces than the cap, about one pair per new piece, each about
 * `2 × length / MAX_PIECES` units.
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
  tail: readonly T[],
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
  const kept = pieces.length;
  let at = Math.min(keep, earlier.length);
  for (const piece of tail) {
    if (kind.length(piece) === 0) continue;
    pieces.push(piece);
    starts.push(at);
    at += kind.length(piece);
  }
  if (pieces.length === 0 && tail[0] !== undefined) {
    pieces.push(tail[0]);
    starts.push(0);
  }
  // The newest piece is never merged, nor any piece this tail added.
  const fresh = Math.max(1, pieces.length - kept);
  while (pieces.length > MAX_PIECES && mergeShortestPair(kind, pieces, starts, fresh));
  return { pieces, starts };
}

/**
 * Merges the adjacent pair before the `fresh` newest pieces that is shortest together; false when
 * there is no such pair.
 */
function mergeShortestPair<T>(
  kind: PieceKind<T>,
  pieces: T[],
  starts: number[],
  fresh: number,
): boolean {
  let best = -1;
  let bestLength = Infinity;
  for (let index = 0; index + 1 < pieces.length - fresh; index++) {
    const length = kind.length(pieces[index] as T) + kind.length(pieces[index + 1] as T);
    if (length < bestLength) {
      best = index;
      bestLength = length;
    }
  }
  if (best < 0) return false;
  pieces.splice(best, 2, kind.join(pieces[best] as T, pieces[best + 1] as T));
  starts.splice(best + 1, 1);
  return true;
}
