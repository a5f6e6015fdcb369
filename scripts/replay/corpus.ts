/**
 * The shared corpus as the replay bench reads it: which files to replay and which source (the
 * corpus folder it was copied from) each belongs to. Read at run time; never copied.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { listTranscriptFiles } from '@dense/core';

export interface CorpusFile {
  readonly file: string;
  readonly source: string;
  readonly bytes: number;
}

/** Files listed in `manifest.jsonl` (`{source, file}` per line), else every file under `raw/`. */
export async function corpusFiles(corpusDir: string): Promise<CorpusFile[]> {
  const manifest = path.join(corpusDir, 'manifest.jsonl');
  const entries: { file: string; source: string }[] = [];
  if (existsSync(manifest)) {
    for (const line of readFileSync(manifest, 'utf8').split('\n')) {
      if (line.trim() === '') continue;
      const record = JSON.parse(line) as { source?: unknown; file?: unknown };
      if (typeof record.file === 'string' && typeof record.source === 'string') {
        entries.push({ file: path.join(corpusDir, record.file), source: record.source });
      }
    }
  } else {
    const raw = path.join(corpusDir, 'raw');
    for (const file of await listTranscriptFiles(raw)) {
      entries.push({ file, source: path.relative(raw, file).split(path.sep)[0] ?? 'corpus' });
    }
  }
  return entries.map((entry) => ({ ...entry, bytes: statSync(entry.file).size }));
}
