/**
 * The files a replay of a path covers: the file itself, or every file under a directory; the
 * entries of the directory it does not take are reported with the reason.
 *
 * Symbolic links inside a directory: a link to a file is followed (listed under the link's own
 * path, wherever the file lies: a file cannot lead the walk anywhere); a link to a directory is not
 * followed (it could loop back into the tree or lead out of it; give that directory itself
 * instead); a link whose target is missing, and a second path to a file already listed, are left
 * out. Every entry left out is reported to `onSkipped`; only hidden entries (`.name`) are left
 * out without a word.
 */
import { readdir, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { ReplayError } from './replayErrors.js';

/** Why an entry of the directory is not in `files`. */
export const SKIPPED_PATH_KINDS = [
  /** A symbolic link to a directory: not followed. */
  'directory-link',
  /** A symbolic link whose target does not exist or cannot be read. */
  'broken-link',
  /** The same file as one already listed (through a link): replayed once, under the first path. */
  'duplicate',
  /** Neither a file nor a directory (a socket, a FIFO, a device). */
  'not-a-file',
] as const;
export type SkippedPathKind = (typeof SKIPPED_PATH_KINDS)[number];

export interface SkippedPath {
  readonly path: string;
  readonly kind: SkippedPathKind;
  /** One line for a human, e.g. `symlink to a directory, not followed`. */
  readonly reason: string;
}

export interface ListTranscriptFilesOptions {
  /** Called once per entry left out, in the order met. */
  readonly onSkipped?: (skipped: SkippedPath) => void;
}

/** The state of one directory walk. */
interface Walk {
  readonly files: string[];
  /** Real path → the path it was listed under. */
  readonly listedAs: Map<string, string>;
  readonly skip: (entry: SkippedPath) => void;
}

async function take(walk: Walk, full: string): Promise<void> {
  const real = await realpath(full);
  const first = walk.listedAs.get(real);
  if (first !== undefined) {
    walk.skip({ path: full, kind: 'duplicate', reason: `same file as ${first}` });
    return;
  }
  walk.listedAs.set(real, full);
  walk.files.push(full);
}

/** A symbolic link: its file is taken; anything else is left out, with the reason. */
async function visitLink(walk: Walk, full: string): Promise<void> {
  const linked = await stat(full).catch(() => undefined);
  if (linked?.isFile() === true) return take(walk, full);
  walk.skip(
    linked === undefined
      ? { path: full, kind: 'broken-link', reason: 'symlink to nothing readable' }
      : linked.isDirectory()
        ? {
            path: full,
            kind: 'directory-link',
            reason: 'symlink to a directory, not followed (give the directory itself)',
          }
        : { path: full, kind: 'not-a-file', reason: 'symlink to no regular file' },
  );
}

async function walkDirectory(walk: Walk, directory: string): Promise<void> {
  const entries = await readdir(directory, { withFileTypes: true });
  entries.sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) await walkDirectory(walk, full);
    else if (entry.isFile()) await take(walk, full);
    else if (entry.isSymbolicLink()) await visitLink(walk, full);
    else walk.skip({ path: full, kind: 'not-a-file', reason: 'not a regular file' });
  }
}

/**
 * `target` when it is a file (a link to one included); otherwise every non-hidden file below it,
 * recursively, in sorted order (depth first), following links to files only. Which of them are
 * transcripts is for the importer to say. Throws `ReplayError` (`REPLAY_NO_TRANSCRIPTS`) when the
 * path does not exist or the directory holds no file.
 */
export async function listTranscriptFiles(
  target: string,
  options: ListTranscriptFilesOptions = {},
): Promise<string[]> {
  const info = await stat(target).catch(() => undefined);
  if (info === undefined) {
    throw new ReplayError('REPLAY_NO_TRANSCRIPTS', `${target} does not exist.`);
  }
  if (!info.isDirectory()) return [target];
  let skipped = 0;
  const walk: Walk = {
    files: [],
    listedAs: new Map(),
    skip: (entry) => {
      skipped += 1;
      options.onSkipped?.(entry);
    },
  };
  await walkDirectory(walk, target);
  if (walk.files.length === 0) {
    const leftOut =
      skipped === 0 ? '' : ` (${skipped} ${skipped === 1 ? 'entry' : 'entries'} left out)`;
    throw new ReplayError('REPLAY_NO_TRANSCRIPTS', `${target} holds no file to replay${leftOut}.`);
  }
  return walk.files;
}
