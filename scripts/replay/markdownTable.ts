/**
 * The markdown table cells every section of the replay bench writes: a row and a ratio as a
 * percentage. Pure.
 */

/** One table row; a `|` inside a cell is escaped so that it cannot split the cell. */
export function row(cells: readonly string[]): string {
  return `| ${cells.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`;
}

/** A ratio (1 = 100%) as a percentage with one decimal. */
export function percent(value: number): string {
  return `${(100 * value).toFixed(1)}%`;
}
