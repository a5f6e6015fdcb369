/** A text bar for "how full is the context": `█████░░░░░`, readable without colour. */

export function usageBar(fraction: number, width: number): string {
  const cells = Math.max(1, Math.floor(width));
  const clamped = Math.min(1, Math.max(0, Number.isFinite(fraction) ? fraction : 0));
  const filled = Math.round(clamped * cells);
  return '█'.repeat(filled) + '░'.repeat(cells - filled);
}
