/**
 * The rule both kept bodies follow (`SegmentedText` over decoded text, `SegmentedBytes` over the
 * body's bytes): keep the first `keep` units of the earlier pieces, add the new tail as a piece,
 * then merge the last two while the earlier is at most twice the later and the merged piece stays
 * within `maxMerged`. A unit is copied O(log length) times over a conversation and no request
 * copies more than one merged piece's worth.
 */

/** How a kind of piece is measured, cut and joined. */
export interface PieceKind<T> {
  readonly length: (piece: T) => number;
  /** The first `units` of `piece`. */
  readonly head: (piece: T, units: number) => T;
  readonly join: (before: T, after: T) => T;
}

export interface Pieces<T> {
  readonly pieces: readonly T[];
  /** Offset of each piece's first unit, ascending. */
  readonly starts: readonly number[];
}

export function keepThenAppend<T>(
  kind: PieceKind<T>,
  earlier: Pieces<T> & { readonly length: number },
  keep: number,
  tail: T,
  maxMerged: number,
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
  while (pieces.length >= 2) {
    const after = pieces.at(-1) as T;
    const before = pieces.at(-2) as T;
    if (kind.length(before) > 2 * kind.length(after)) break;
    if (kind.length(before) + kind.length(after) > maxMerged) break;
    pieces.splice(-2, 2, kind.join(before, after));
    starts.pop();
  }
  return { pieces, starts };
}
