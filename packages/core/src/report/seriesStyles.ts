/**
 * How chart series are told apart: a colour-blind-safe palette and dash patterns whose lengths are
 * coprime, so every series in the first 56 differs from the others in colour or dash and still
 * reads in greyscale.
 */

/** Okabe–Ito colours (without yellow, which vanishes on white), darkest contrast first. */
export const SERIES_COLOURS = [
  '#0072B2',
  '#D55E00',
  '#009E73',
  '#CC79A7',
  '#000000',
  '#E69F00',
  '#56B4E9',
] as const;

/** SVG `stroke-dasharray` values; `''` is a solid line. */
export const SERIES_DASHES = [
  '',
  '9 4',
  '2 3',
  '12 3 2 3',
  '5 5',
  '1 6',
  '12 3 2 3 2 3',
  '6 2 1 2',
] as const;

/** The stroke of the series at `index` (0-based). */
export interface SeriesStyle {
  readonly colour: string;
  readonly dash: string;
}

/** The colour and dash of the series at `index`; the first series is solid blue. */
export function seriesStyle(index: number): SeriesStyle {
  const i = Math.max(0, Math.floor(index));
  return {
    colour: SERIES_COLOURS[i % SERIES_COLOURS.length] ?? '#000000',
    dash: SERIES_DASHES[i % SERIES_DASHES.length] ?? '',
  };
}
