/**
 * Imports every real session in the shared corpus (`../shared/corpus` from the repository root,
 * listed in its manifest.jsonl). Skipped, with a name that says so, when the folder is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { importTranscriptSessions } from './importTranscript.js';
import { toolLinkProblems } from './toolLinkProblems.js';
import type { ImportedSession } from './types.js';

const CORPUS = fileURLToPath(new URL('../../../../../shared/corpus/', import.meta.url));
const MANIFEST = path.join(CORPUS, 'manifest.jsonl');
const present = existsSync(MANIFEST);

interface ManifestEntry {
  readonly source: string;
  readonly file: string;
}

const entries: ManifestEntry[] = present
  ? readFileSync(MANIFEST, 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as ManifestEntry)
  : [];

/** Each manifest file's sessions, or the error importing it threw. */
const imported = new Map<string, ImportedSession[] | Error>();

describe.skipIf(!present)(
  present ? `corpus: every session in ${CORPUS}` : `corpus: skipped, ${CORPUS} not found`,
  () => {
    beforeAll(async () => {
      for (const entry of entries) {
        const result = await importTranscriptSessions(path.join(CORPUS, entry.file)).catch(
          (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
        );
        imported.set(entry.file, result);
      }
    });

    it.each(entries.map((entry) => entry.file))(
      'imports %s without error, skips nothing and links every call',
      (file) => {
        const sessions = imported.get(file);
        if (sessions instanceof Error) throw sessions;
        expect(sessions?.length).toBeGreaterThan(0);
        for (const session of sessions ?? []) {
          expect(session.skipped).toEqual([]);
          expect(session.stats.entries).toBeGreaterThan(0);
          expect(session.stats.aiEntries).toBeGreaterThan(0);
          expect(toolLinkProblems(session.contents)).toEqual([]);
          expect(session.stats.toolResponses + session.stats.unansweredCalls).toBe(
            session.stats.toolCalls,
          );
        }
      },
    );

    it('finds tool calls, reads and writes in every source', () => {
      const bySource = new Map<string, ImportedSession[]>();
      for (const entry of entries) {
        const sessions = imported.get(entry.file);
        if (Array.isArray(sessions)) {
          bySource.set(entry.source, [...(bySource.get(entry.source) ?? []), ...sessions]);
        }
      }
      expect(bySource.size).toBe(new Set(entries.map((entry) => entry.source)).size);
      for (const [source, sessions] of bySource) {
        const total = (
          key: 'toolCalls' | 'reads' | 'writes' | 'shellReads' | 'shellWrites',
        ): number => sessions.reduce((sum, session) => sum + session.stats[key], 0);
        expect(total('toolCalls'), source).toBeGreaterThan(0);
        expect(total('reads') + total('shellReads'), source).toBeGreaterThan(0);
        expect(total('writes') + total('shellWrites'), source).toBeGreaterThan(0);
      }
    });
  },
);
