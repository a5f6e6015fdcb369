/**
 * Runs one `dense recall` request against the archive: looks the id up, renders a message list as
 * a transcript (unless `--json`), applies the view and writes the result. A closed stdout (EPIPE:
 * the reader, e.g. `head`, has all it wanted) is not a failure. Imports nothing from the rest of
 * the CLI or from `@dense/core` at run time, so the fast entry point stays small.
 */
import { writeFile } from 'node:fs/promises';
import type { ArchiveLookup, RecallMissingReason } from '@dense/core';
import { imageOriginalLines, writeImageOriginal, type ImageOriginalPart } from './imageOriginal.js';
import { RECALL_EXIT, RECALL_EXIT_OF } from './recallExit.js';
import type { RecallRequest } from './recallRequest.js';
import { viewText } from './recallView.js';
import { renderWireTranscript } from './renderWireTranscript.js';

/** The archive as `dense recall` reads it: a `RecallArchive` and core's `recallMissingMessage`. */
export interface RecallLookup {
  readonly dir: string;
  lookup(id: string): Promise<ArchiveLookup>;
  /** The one line saying why `id` has no original. */
  missingMessage(id: string, reason: RecallMissingReason): string;
  /**
   * An image original's parts (core's `recalledImageParts`), undefined for any other original;
   * absent: images print as stored.
   */
  readonly imageParts?: (text: string) => readonly ImageOriginalPart[] | undefined;
}

export interface RecallStreams {
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

type LookupOutcome = ArchiveLookup | { readonly kind: 'unreadable'; readonly message: string };

/** A lookup that never throws: an unreadable archive is a result too. */
export async function lookupOriginal(
  archive: Pick<RecallLookup, 'dir' | 'lookup'>,
  id: string,
): Promise<LookupOutcome> {
  try {
    return await archive.lookup(id);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      kind: 'unreadable',
      message: `could not read the recall archive ${archive.dir}: ${reason}`,
    };
  }
}

export function isClosedPipe(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'EPIPE';
}

function writeAll(stream: NodeJS.WritableStream, chunk: Buffer | string): Promise<void> {
  return new Promise((resolve, reject) => {
    stream.write(chunk, (error) => (error ? reject(error) : resolve()));
  });
}

function lineCount(lines: number): string {
  return `${lines} line${lines === 1 ? '' : 's'}`;
}

/** What to print for a found original: stdout, an optional note on stderr, the exit code. */
export function recallOutput(
  bytes: Buffer,
  request: RecallRequest,
  images?: RecallLookup['imageParts'],
): { readonly stdout: Buffer | string; readonly note?: string; readonly code: number } {
  const raw = request.json ? undefined : bytes.toString('utf8');
  const parts = raw === undefined ? undefined : images?.(raw);
  const transcript =
    parts !== undefined
      ? `${imageOriginalLines(parts, request.id).join('\n')}\n`
      : raw === undefined
        ? undefined
        : renderWireTranscript(raw);
  if (request.view === undefined) return { stdout: transcript ?? bytes, code: RECALL_EXIT.found };
  const viewed = viewText(transcript ?? raw ?? bytes.toString('utf8'), request.view);
  if (viewed.matches === 0) {
    const note = `no line of ${request.id} matches /${request.view.grep?.source ?? ''}/i (${lineCount(viewed.total)})`;
    return { stdout: '', note, code: RECALL_EXIT.noMatch };
  }
  if (viewed.text === '' && viewed.total > 0) {
    const note = `${request.id} has ${lineCount(viewed.total)}; the range asked for is past the end`;
    return { stdout: '', note, code: RECALL_EXIT.found };
  }
  return { stdout: viewed.text, code: RECALL_EXIT.found };
}

/** `--out FILE`: an image original's bytes to FILE, one line per file written. */
async function writeOut(
  bytes: Buffer,
  out: string,
  streams: RecallStreams,
  archive: Pick<RecallLookup, 'imageParts'>,
): Promise<number> {
  const parts = archive.imageParts?.(bytes.toString('utf8'));
  if (parts === undefined) {
    streams.stderr.write('dense recall: --out writes an image original; this one holds no image\n');
    return RECALL_EXIT.malformed;
  }
  try {
    const write = (file: string, data: Buffer) => writeFile(file, data, { mode: 0o600 });
    const lines = await writeImageOriginal(parts, out, write);
    streams.stdout.write(lines.map((line) => `${line}\n`).join(''));
    return RECALL_EXIT.found;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    streams.stderr.write(`dense recall: could not write ${out}: ${reason}\n`);
    return RECALL_EXIT.unreadable;
  }
}

export async function runRecall(
  request: RecallRequest,
  streams: RecallStreams,
  archive: RecallLookup,
): Promise<number> {
  const found = await lookupOriginal(archive, request.id);
  switch (found.kind) {
    case 'found': {
      if (request.out !== undefined) return writeOut(found.bytes, request.out, streams, archive);
      const output = recallOutput(found.bytes, request, archive.imageParts);
      if (output.note !== undefined) streams.stderr.write(`dense recall: ${output.note}\n`);
      try {
        if (output.stdout.length > 0) await writeAll(streams.stdout, output.stdout);
      } catch (error) {
        if (!isClosedPipe(error)) throw error;
      }
      return output.code;
    }
    case 'missing':
      streams.stderr.write(`dense recall: ${archive.missingMessage(request.id, found.reason)}\n`);
      return RECALL_EXIT_OF[found.reason];
    case 'unreadable':
      streams.stderr.write(`dense recall: ${found.message}\n`);
      return RECALL_EXIT.unreadable;
    default: {
      const never: never = found;
      return never;
    }
  }
}
