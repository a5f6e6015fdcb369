/** Numbers for people: token counts with thousands separators, and compact forms for tight spaces. */

export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** `950`, `12.3k`, `1.05M`. */
export function formatCompact(value: number): string {
  const abs = Math.abs(value);
  if (abs < 1000) return String(Math.round(value));
  if (abs < 1_000_000) return `${trim((value / 1000).toFixed(abs < 10_000 ? 1 : 0))}k`;
  return `${trim((value / 1_000_000).toFixed(2))}M`;
}

function trim(text: string): string {
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}

/** `42.5%` (one decimal below 10%, none above). */
export function formatPercent(fraction: number): string {
  const percent = fraction * 100;
  return `${percent < 10 ? percent.toFixed(1) : Math.round(percent)}%`;
}
