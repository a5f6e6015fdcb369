/** The files a replay of a path covers: the file itself, or every file under a directory. */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { ReplayError } from './replayErrors.js';

/**
 * `target` when it is a file; otherwise every non-hidden file below it, recursively, in sorted
 * order. Which of them are transcripts is for the importer to say. Throws `ReplayError`
 * (`REPLAY_NO_TRANSCRIPTS`) when the path does not exist or the directory holds no file.
 */
export async function listTranscriptFiles(target: string): Promise<string[]> {
  const info = await stat(target).catch(() => undefined);
  if (info === undefined) {
    throw new ReplayError('REPLAY_NO_TRANSCRIPTS', `${target} does not exist.`);
  }
  if (!info.isDirectory()) return [target];
  const files: string[] = [];
  const walk = async (directory: string): Promise<void> => {
    const entries = await readdir(directory, { withFileTypes: true });
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory()) await walk(full);
      else if (entry.isFile()) files.push(full);
    }
  };
  await walk(target);
  if (files.length === 0) {
    throw new ReplayError('REPLAY_NO_TRANSCRIPTS', `${target} holds no file to replay.`);
  }
  return files;
}
