/**
 * The transcript lines of a tool call: `call <name> [<id>] <input>` on one line when the input is
 * short and single-line, else the header line and one indented line per input field (a multi-line
 * string value as its own indented lines), so a long file write or patch stays readable.
 */
import { isRecord } from './wireItems.js';

/** Inputs up to this many characters (as compact JSON) stay on the call's line. */
const INLINE_CHARS = 200;
const INDENT = '  ';

function callHeader(name: string, id: string | undefined): string {
  return id === undefined || id === '' ? `call ${name}` : `call ${name} [${id}]`;
}

function indented(text: string, depth: string): string[] {
  return text.split('\n').map((line) => `${depth}${line}`);
}

function fieldLines(key: string, value: unknown): string[] {
  if (typeof value === 'string') {
    if (!value.includes('\n')) return [`${INDENT}${key}: ${value}`];
    return [`${INDENT}${key}:`, ...indented(value, INDENT + INDENT)];
  }
  return [`${INDENT}${key}: ${JSON.stringify(value) ?? String(value)}`];
}

/** A function call's `arguments` string as its parsed value, or the string when it is not JSON. */
export function parsedArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Lines for one call; `input` is the parsed input (an object, or free-form text). */
export function toolCallLines(name: string, id: string | undefined, input: unknown): string[] {
  const header = callHeader(name, id);
  if (input === undefined || (isRecord(input) && Object.keys(input).length === 0)) return [header];
  if (typeof input === 'string') {
    if (!input.includes('\n') && input.length <= INLINE_CHARS) return [`${header} ${input}`];
    return [header, ...indented(input, INDENT)];
  }
  const compact = JSON.stringify(input) ?? 'null';
  const multiLine = compact.includes('\\n');
  if (!isRecord(input) || (compact.length <= INLINE_CHARS && !multiLine)) {
    return [`${header} ${compact}`];
  }
  return [header, ...Object.entries(input).flatMap(([key, value]) => fieldLines(key, value))];
}
