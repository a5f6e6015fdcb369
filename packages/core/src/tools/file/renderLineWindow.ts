/**
 * Shows a window of a file's lines within the read caps (lines and UTF-8 bytes), optionally
 * numbered, and reports where it stopped so the tool can say how to read on.
 */
import { TOOL_LIMITS } from '../toolLimits.js';

export interface LineWindowInput {
  readonly lines: readonly string[];
  /** 0-based index of the first line to show. */
  readonly start: number;
  /** How many lines were asked for (before the caps). */
  readonly count: number;
  readonly lineNumbers: boolean;
}

export interface LineWindow {
  readonly text: string;
  /** 0-based index just past the last line shown (fully or cut). */
  readonly end: number;
  /** Which cap stopped the window early, if any. */
  readonly cappedBy?: 'lines' | 'bytes';
  /** The only line shown was longer than the byte cap and was cut. */
  readonly lineCut: boolean;
}

function formatLine(line: string, index: number, width: number, numbered: boolean): string {
  return numbered ? `${String(index + 1).padStart(width)}| ${line}` : line;
}

export function renderLineWindow(input: LineWindowInput): LineWindow {
  const maxLines = TOOL_LIMITS.readMaxLines;
  const maxBytes = TOOL_LIMITS.readMaxBytes;
  const wanted = Math.min(input.count, input.lines.length - input.start);
  const limit = Math.min(wanted, maxLines);
  const width = String(input.start + limit).length;
  const shown: string[] = [];
  let bytes = 0;
  for (let i = input.start; i < input.start + limit; i++) {
    const line = formatLine(input.lines[i] ?? '', i, width, input.lineNumbers);
    const cost = Buffer.byteLength(line, 'utf8') + 1;
    if (bytes + cost > maxBytes) {
      if (shown.length > 0)
        return { text: shown.join('\n'), end: i, cappedBy: 'bytes', lineCut: false };
      const cut = Buffer.from(line, 'utf8').subarray(0, maxBytes).toString('utf8');
      return { text: cut, end: i + 1, cappedBy: 'bytes', lineCut: true };
    }
    shown.push(line);
    bytes += cost;
  }
  const end = input.start + limit;
  return limit < wanted
    ? { text: shown.join('\n'), end, cappedBy: 'lines', lineCut: false }
    : { text: shown.join('\n'), end, lineCut: false };
}

/** Why a window stopped early, as words for the notice. */
export function capReason(window: LineWindow): string {
  if (window.lineCut) {
    return `; line ${window.end} is longer than the ${TOOL_LIMITS.readMaxBytes}-byte output cap and was cut`;
  }
  switch (window.cappedBy) {
    case 'lines':
      return `; output capped at ${TOOL_LIMITS.readMaxLines} lines per call`;
    case 'bytes':
      return `; output capped at ${TOOL_LIMITS.readMaxBytes / 1024} KB per call`;
    case undefined:
      return '';
  }
}
