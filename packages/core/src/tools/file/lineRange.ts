/** The rule both line-range tools share: a range may not end before it starts. */

/** Use as `.refine(endNotBeforeStart, END_BEFORE_START)` on a schema with start_line and end_line. */
export function endNotBeforeStart(p: {
  readonly start_line: number;
  readonly end_line: number;
}): boolean {
  return p.end_line >= p.start_line;
}

export const END_BEFORE_START = {
  path: ['end_line'],
  message: 'end_line must be greater than or equal to start_line',
};
