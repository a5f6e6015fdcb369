/** Small text helpers for one-line summaries: collapse, clip, quote, pluralize. */

/** `text` on one line (whitespace runs become one space), at most `max` characters (… marks a cut). */
export function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, Math.max(0, max - 1))}…`;
}

/** `text` clipped and in double quotes (inner double quotes become single ones). */
export function quote(text: string, max: number): string {
  return `"${clip(text.replaceAll('"', "'"), max)}"`;
}

export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : pluralForm}`;
}
