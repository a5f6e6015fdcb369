/**
 * Text for the dashboard page: HTML escaping (every string that reaches the page goes through
 * `escapeHtml`) and the short forms of costs, durations, percentages and times.
 */

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Safe in element text and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

/** "812", "12.3k", "4.56M" (costs in input-token units, token counts). */
export function formatAmount(value: number): string {
  const size = Math.abs(value);
  if (size >= 1e9) return `${(value / 1e9).toFixed(2)}G`;
  if (size >= 1e6) return `${(value / 1e6).toFixed(2)}M`;
  if (size >= 1e4) return `${(value / 1e3).toFixed(1)}k`;
  return String(Math.round(value));
}

/** "45 s", "12 min", "3.4 h". */
export function formatSeconds(seconds: number): string {
  if (seconds < 90) return `${Math.round(seconds)} s`;
  if (seconds < 90 * 60) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** A bucket length: "1-minute", "15-minute", "6-hour", "1-day". */
export function formatBucket(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes % 1440 === 0) return `${minutes / 1440}-day`;
  if (minutes % 60 === 0) return `${minutes / 60}-hour`;
  return `${minutes}-minute`;
}

/** "23.4%", or "–" when nothing was priced. */
export function formatPercent(percent: number | null): string {
  return percent === null ? '–' : `${percent.toFixed(1)}%`;
}

/** A clock time for axis labels and the page header, e.g. "3 Dec 14:05". */
export function timeFormatter(timeZone: string, withDate: boolean): (at: number) => string {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    ...(withDate ? { day: 'numeric', month: 'short' } : {}),
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  return (at) => format.format(new Date(at));
}
