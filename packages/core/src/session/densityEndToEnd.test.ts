/**
 * End to end through a real session: real tools in a temp workspace, the real strategies, a scripted
 * model. The model reads a file, edits it, reads it again; the user includes another file twice.
 */
import { mkdtemp, readFile, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ScriptedProvider } from '../test-utils/ScriptedProvider.js';
import { workspaceSession } from '../test-utils/workspaceSession.js';
import { formatFileInclusion } from '../core/compression/densityVocabulary.js';
import type { CompressionStrategyName } from '../core/compression/types.js';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';
import { unchangedInclusionNote } from '../core/compression/density/entry/unchangedInclusion.js';
import { countTokensFromScratch } from '../services/history/HistoryService.js';
import type { DensityAppliedEvent } from '../core/CompressionHandler.js';

const ORIGINAL = Array.from({ length: 40 }, (_, i) => `export const value${i} = ${i};`).join('\n');
const NOTES = Array.from({ length: 30 }, (_, i) => `- note ${i}: keep the parser streaming`).join(
  '\n',
);

let workspace: string;

beforeEach(async () => {
  workspace = await mkdtemp(path.join(os.tmpdir(), 'dense-e2e-'));
  await mkdir(path.join(workspace, 'src'));
});

afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

function script(): ScriptedProvider {
  return new ScriptedProvider([
    {
      text: 'Reading.',
      toolCalls: [{ id: 'read-1', name: 'read_file', parameters: { file_path: 'src/a.ts' } }],
    },
    {
      toolCalls: [
        {
          id: 'edit-1',
          name: 'replace',
          parameters: {
            file_path: 'src/a.ts',
            old_string: 'value0 = 0',
            new_string: 'value0 = 100',
          },
        },
      ],
    },
    { toolCalls: [{ id: 'read-2', name: 'read_file', parameters: { file_path: 'src/a.ts' } }] },
    { text: 'Done: value0 is 100.' },
    { text: 'Noted.' },
    { text: 'Noted again.' },
    { text: 'All good.' },
  ]);
}

/** Spec mode for the inclusion: the second copy enters whole and dedup cuts the first. */
const SPEC_DEDUP = { 'compression.density.unchangedReads': false } as const;

async function run(strategy: CompressionStrategyName, settings: EphemeralSettings = SPEC_DEDUP) {
  await writeFile(path.join(workspace, 'src', 'a.ts'), `${ORIGINAL}\n`);
  await writeFile(path.join(workspace, 'notes.md'), `${NOTES}\n`);
  const provider = script();
  const session = workspaceSession(workspace, provider, {
    'compression.strategy': strategy,
    'context-limit': 200_000,
    ...settings,
  });
  const density: DensityAppliedEvent[] = [];
  session.compression.events.on('densityApplied', (event) => density.push(event));
  await session.sendMessage('Set value0 to 100 in src/a.ts');
  await session.sendMessage(`Keep these in mind:\n${formatFileInclusion('notes.md', NOTES)}`);
  await session.sendMessage(`Once more, updated:\n${formatFileInclusion('notes.md', NOTES)}`);
  await session.sendMessage('Status?');
  const lastRequest = JSON.stringify(provider.requests.at(-1)?.contents);
  return { session, density, lastRequest };
}

const occurrences = (text: string, needle: string) => text.split(needle).length - 1;

describe('density in a live session (issue 5 end to end)', () => {
  it('high-density: the stale read and the older inclusion are gone from what the model receives', async () => {
    const { session, density, lastRequest } = await run('high-density');
    expect(await readFile(path.join(workspace, 'src', 'a.ts'), 'utf8')).toContain('value0 = 100');

    // Issue #11 (recall pointers, the default): the stale read keeps its call, its content is
    // replaced by a pointer naming its recall id.
    expect(lastRequest).toMatch(
      /Result pruned \(stale: file rewritten later\) — recall id r[0-9a-f]{10}/,
    );
    expect(lastRequest).toContain('read-2');
    expect(lastRequest).toContain('edit-1');
    expect(lastRequest).toContain('value0 = 100');
    expect(lastRequest).not.toContain('value0 = 0;');
    expect(occurrences(lastRequest, 'note 17: keep the parser streaming')).toBe(1);
    expect(lastRequest).toContain('Keep these in mind');

    const removed = density.reduce((sum, e) => sum + e.tokensBefore - e.tokensAfter, 0);
    const attributed = density.reduce(
      (sum, e) => sum + e.removedTokens.readWrite + e.removedTokens.dedup + e.removedTokens.recency,
      0,
    );
    expect(removed).toBeGreaterThan(300);
    expect(attributed).toBe(removed);
    expect(density.reduce((n, e) => n + e.metadata.readWrite, 0)).toBe(1);
    expect(density.reduce((n, e) => n + e.metadata.dedup, 0)).toBe(1);
    const report = await session.contextReport();
    expect(report.reclaimedTokens).toBe(removed);
    // #11 / #13.6: the stale read and the stale inclusion stay recallable, and /context can say so.
    expect(report.recallable).toEqual({ ids: 2, entries: 2 });
    expect(session.history.getTotalTokens()).toBe(
      await countTokensFromScratch(session.history.getRawHistory()),
    );
  });

  it('#14.2 defaults: the repeated inclusion enters as a note naming the first copy — no edit of what was sent', async () => {
    const { density, lastRequest, session } = await run('high-density', {});
    expect(occurrences(lastRequest, 'note 17: keep the parser streaming')).toBe(1);
    expect(lastRequest).toContain('Keep these in mind');
    expect(lastRequest).toContain(JSON.stringify(unchangedInclusionNote('notes.md')).slice(1, -1));
    expect(density.reduce((n, e) => n + e.metadata.dedup, 0)).toBe(0);
    expect(density.reduce((n, e) => n + e.metadata.readWrite, 0)).toBe(1);
    // The first copy is the one the model keeps: it was sent first and stays where it was.
    const raw = JSON.stringify(session.history.getRawHistory());
    expect(raw.indexOf('note 17')).toBeLessThan(raw.indexOf('Once more, updated'));
    // /context counts the note and what it kept out (the copy's tokens less the note's).
    const { keptOut } = await session.contextReport();
    expect(keptOut?.notes).toBe(1);
    expect(keptOut?.tokens).toBeGreaterThan(250);
  });

  it('middle-out (no density): both reads and both inclusions stay', async () => {
    const { density, lastRequest } = await run('middle-out');
    expect(density).toEqual([]);
    expect(lastRequest).toContain('read-1');
    expect(lastRequest).toContain('value0 = 0;');
    expect(occurrences(lastRequest, 'note 17: keep the parser streaming')).toBe(2);
  });

  it('the token count under high-density is lower than under middle-out by what density removed', async () => {
    const dense = await run('high-density');
    const plain = await run('middle-out');
    const removed = dense.density.reduce((sum, e) => sum + e.tokensBefore - e.tokensAfter, 0);
    expect(plain.session.history.getTotalTokens() - dense.session.history.getTotalTokens()).toBe(
      removed,
    );
  });
});
