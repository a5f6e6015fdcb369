/**
 * The shared corpus of real sessions (`../shared/corpus` beside the repository, listed in its
 * `manifest.jsonl`), for the tests that read it. Absent on CI, whose checkout has no `../shared`:
 * `present` is false and `entries` empty, so those tests skip with a name that says so.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS = fileURLToPath(new URL('../../../../../shared/corpus/', import.meta.url));
const MANIFEST = path.join(CORPUS, 'manifest.jsonl');
export const corpusPresent = existsSync(MANIFEST);

/** One manifest line: the file (under the corpus folder), its source and its format. */
export interface CorpusEntry {
  readonly source: string;
  readonly file: string;
  readonly format: string;
}

export const corpusEntries: readonly CorpusEntry[] = corpusPresent
  ? readFileSync(MANIFEST, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as CorpusEntry)
  : [];
