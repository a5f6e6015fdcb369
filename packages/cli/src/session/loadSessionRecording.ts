/**
 * Reads a session recording back for `--resume`: the header and every content line in order
 * (event lines are skipped; bad lines are counted and skipped, so one torn last line from a crash
 * does not lose the session). A file without a valid header is not a Dense recording.
 */
import { readFile } from 'node:fs/promises';
import { errorMessage, parseSessionLine, type IContent, type SessionHeader } from '@dense/core';
import { CliError } from '../cliErrors.js';

export interface SessionRecording {
  readonly header: SessionHeader;
  readonly contents: readonly IContent[];
  /** Lines that could not be read, with their 1-based line number and why. */
  readonly skipped: readonly { readonly line: number; readonly reason: string }[];
}

/** Parses a recording's text; `file` is only named in errors. */
export function parseSessionRecording(text: string, file: string): SessionRecording {
  let header: SessionHeader | undefined;
  const contents: IContent[] = [];
  const skipped: { line: number; reason: string }[] = [];
  text.split('\n').forEach((raw, index) => {
    if (raw.trim() === '') return;
    const parsed = parseSessionLine(raw);
    switch (parsed.kind) {
      case 'session':
        header ??= parsed.header;
        break;
      case 'content':
        contents.push(parsed.content);
        break;
      case 'event':
        break;
      case 'invalid':
        skipped.push({ line: index + 1, reason: parsed.reason });
        break;
    }
  });
  if (header === undefined) {
    throw new CliError(
      'CLI_SESSION_INVALID',
      `${file} is not a Dense session recording (no valid header line).`,
    );
  }
  return { header, contents, skipped };
}

export async function loadSessionRecording(file: string): Promise<SessionRecording> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError('CLI_SESSION_INVALID', `Could not read ${file}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  return parseSessionRecording(text, file);
}
