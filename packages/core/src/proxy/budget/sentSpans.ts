/**
 * Where the messages of a request sit once density's edits are written into it: each edit
 * replaces a span inside one message (never across message bounds), so a message's sent span is
 * its original span shifted by the edits before it and shortened by those inside it. Pure.
 */

/** One replacement: `original[start, end)` became `length` characters. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly length: number;
}

/**
 * Density's replacements in a request, read only where needed: each lies inside one message and
 * none overlaps another (each is one result's content).
 */
export interface EditSource {
  /** Characters of the sent text: the original with every edit applied. */
  readonly sentChars: number;
  /** The edits inside `original[from, to)`, in text order. */
  readonly within: (from: number, to: number) => readonly TextEdit[];
}

export interface Span {
  readonly start: number;
  readonly end: number;
}

/**
 * Where each message of `original` sits in the sent text, given density's edits (which lie inside
 * messages, never across their bounds).
 */
export function sentSpans(spans: readonly Span[], edits: readonly TextEdit[]): Span[] {
  const ordered = [...edits].sort((a, b) => a.start - b.start);
  let shift = 0;
  let next = 0;
  let cursor = 0;
  return spans.map((span) => {
    const start = span.start - shift;
    for (; next < ordered.length && (ordered[next] as TextEdit).end <= span.end; next++) {
      const edit = ordered[next] as TextEdit;
      // Overlapping edits are skipped by the splice too.
      if (edit.start < cursor) continue;
      shift += edit.end - edit.start - edit.length;
      cursor = edit.end;
    }
    return { start, end: span.end - shift };
  });
}
