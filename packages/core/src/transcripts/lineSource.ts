/**
 * Line sources for the JSONL importers: a file streamed line by line (multi-MB transcripts never sit
 * in memory as one string) or an in-memory text, both as async iterables of lines without newlines.
 */
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';

export type LineSource = AsyncIterable<string> | Iterable<string>;

/** The lines of a file, streamed. Read errors surface from the iteration. */
export function readFileLines(file: string): AsyncIterable<string> {
  return createInterface({
    input: createReadStream(file, { encoding: 'utf8' }),
    crlfDelay: Infinity,
  });
}

/** The lines of an in-memory text (a trailing newline does not add an empty line). */
export function textLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** A parser's message, cut short: V8 quotes the offending input, which may be long. */
export function shortMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.length > 120 ? `${message.slice(0, 117)}...` : message;
}

export type ParsedLine =
  | {
      readonly kind: 'object';
      readonly line: number;
      readonly value: Readonly<Record<string, unknown>>;
    }
  | { readonly kind: 'invalid'; readonly line: number; readonly reason: string };

/**
 * Each non-blank line parsed as a JSON object, numbered from 1. A line that is not JSON, or not an
 * object, comes back as `invalid` with the reason, so importers can skip it and go on.
 */
export async function* jsonObjectLines(source: LineSource): AsyncGenerator<ParsedLine> {
  let line = 0;
  for await (const raw of source) {
    line += 1;
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      yield { kind: 'invalid', line, reason: `invalid JSON (${shortMessage(error)})` };
      continue;
    }
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      yield { kind: 'object', line, value: value as Record<string, unknown> };
    } else yield { kind: 'invalid', line, reason: 'expected a JSON object on this line' };
  }
}
