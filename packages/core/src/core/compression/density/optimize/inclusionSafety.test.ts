/**
 * Issue 12, defect 1: no file content can change what is recognised as an inclusion, so dedup and
 * stale-inclusion pruning never cut live file content.
 */
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  findFileInclusions,
  formatFileInclusion,
  formatFileInclusions,
} from '../../densityVocabulary.js';
import { ai, human, replaceInFile } from '../../../../test-utils/historyBuilders.js';
import type { IContent } from '../../../../services/history/IContent.js';
import type { DensityConfig } from '../../types.js';
import { applyDensityResultToArray } from './applyDensityResultToArray.js';
import { optimizeDensity } from './optimizeDensity.js';
import { deepFreeze } from '../test-utils/deepFreeze.js';

const ROOT = '/workspace';
const CONFIG: DensityConfig = {
  readWritePruning: true,
  fileDedupe: true,
  recencyPruning: false,
  recencyRetention: 1,
  workspaceRoot: ROOT,
};
const textOf = (entry: IContent | undefined): string =>
  (entry?.blocks ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');
const atMessage = (words: string, files: readonly { path: string; content: string }[]) =>
  human(`${words}\n\n${formatFileInclusions(files)}`);

/** A log whose own content has a marker-shaped line, with plenty after it. */
const runLog = (run: string) =>
  `${run} started\n--- Summary ---\n${`test case ${run} passed in 12 ms\n`.repeat(6)}`;

describe('#12.1 marker-shaped lines in file content', () => {
  it('#12.1 @run1.log then @run2.log, both with a "--- Summary ---" line: run1 is kept whole', () => {
    const history = [
      atMessage('look at @run1.log', [{ path: 'run1.log', content: runLog('run1') }]),
      ai('Run 1 passed.'),
      atMessage('and @run2.log', [{ path: 'run2.log', content: runLog('run2') }]),
    ];
    const result = optimizeDensity(deepFreeze(history), CONFIG);
    const after = applyDensityResultToArray(history, result);
    expect(textOf(after[0])).toBe(textOf(history[0]));
    expect(textOf(after[0])).not.toContain('newer copy');
    expect(result.metadata?.dedup).toBe(0);
  });

  it('#12.1 notes.md with a "--- src/b.ts ---" line, then a successful write of src/b.ts: notes.md is kept whole', () => {
    const notes = `# Notes\n--- src/b.ts ---\n${'remember to keep the retry loop bounded\n'.repeat(6)}`;
    const history = [
      atMessage('keep @notes.md in mind', [{ path: 'notes.md', content: notes }]),
      ai('Noted.'),
      ...replaceInFile('w1', 'src/b.ts'),
      ai('Edited b.ts.'),
    ];
    const result = optimizeDensity(deepFreeze(history), CONFIG);
    const after = applyDensityResultToArray(history, result);
    expect(textOf(after[0])).toBe(textOf(history[0]));
    expect(result.metadata?.dedup).toBe(0);
  });

  it('#12.1 an inclusion nested in a file (a pasted Dense transcript) is content, not an inclusion', () => {
    const pasted = formatFileInclusion('src/a.ts', 'old a\n'.repeat(30));
    const history = [
      atMessage('see @transcript.txt', [{ path: 'transcript.txt', content: `log:\n${pasted}\n` }]),
      atMessage('now @src/a.ts', [{ path: 'src/a.ts', content: 'new a\n'.repeat(30) }]),
    ];
    const result = optimizeDensity(deepFreeze(history), CONFIG);
    expect(result.replacements.size).toBe(0);
  });
});

describe("#12.1 the user's own words cannot make a file's content pair up either", () => {
  it('#12.1 an opener pasted into the prompt does not pair with a closer inside a file', () => {
    const pasted = formatFileInclusion('src/a.ts', 'old a\n'.repeat(30));
    const [open = '', , close = ''] = formatFileInclusion('x.ts', 'x').split('\n');
    const content = `first\n${close}\n${pasted}\nlast\n`;
    const message = `compare with\n${open}\n\n${formatFileInclusion('log.txt', content)}`;
    expect(findFileInclusions(message).map((span) => span.filePath)).toEqual(['log.txt']);
    const history = [
      human(message),
      atMessage('now @src/a.ts', [{ path: 'src/a.ts', content: 'new a\n'.repeat(30) }]),
    ];
    expect(optimizeDensity(deepFreeze(history), CONFIG).replacements.size).toBe(0);
  });
});

const PATHS = ['a.ts', 'src/b.ts', 'notes.md', 'run.log'] as const;
/** Lines a file may hold, marker-shaped ones included (legacy and current layouts). */
const contentLine = fc.oneof(
  fc.constantFrom(
    '--- Summary ---',
    '--- End of content ---',
    '--- Content from referenced files ---',
    ...PATHS.map((p) => `--- ${p} ---`),
  ),
  fc.constantFrom(...PATHS).map((p) => formatFileInclusion(p, 'pasted\n'.repeat(20))),
  fc.constantFrom(...PATHS).map((p) => formatFileInclusion(p, 'x').split('\n')[0] ?? ''),
  fc.constantFrom(...PATHS).map((p) => formatFileInclusion(p, 'x').split('\n').at(-1) ?? ''),
  fc.stringMatching(/^[a-z =;(){}-]{0,30}$/),
);
const fileContent = fc.array(contentLine, { minLength: 0, maxLength: 12 }).map((l) => l.join('\n'));

type Step =
  | { readonly kind: 'include'; readonly files: { path: string; content: string }[] }
  | { readonly kind: 'write'; readonly path: string };
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc
      .uniqueArray(fc.record({ path: fc.constantFrom(...PATHS), content: fileContent }), {
        minLength: 1,
        maxLength: 3,
        selector: (file) => file.path,
      })
      .map((files) => ({ kind: 'include' as const, files })),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...PATHS).map((path) => ({ kind: 'write' as const, path })),
  },
);

function buildHistory(steps: readonly Step[]): IContent[] {
  return steps.flatMap((s, i): IContent[] =>
    s.kind === 'include'
      ? [atMessage(`turn ${i}`, s.files), ai('ok')]
      : [...replaceInFile(`w${i}`, s.path), ai('ok')],
  );
}

/** Inclusions with no later inclusion of their path and no later write: they must stay whole. */
function liveInclusions(history: readonly IContent[], steps: readonly Step[]) {
  const live: { entryIndex: number; text: string }[] = [];
  let entryIndex = 0;
  steps.forEach((s, i) => {
    if (s.kind === 'include') {
      for (const file of s.files) {
        const later = steps.slice(i + 1);
        const superseded = later.some((l) =>
          l.kind === 'write' ? l.path === file.path : l.files.some((f) => f.path === file.path),
        );
        if (!superseded)
          live.push({ entryIndex, text: formatFileInclusion(file.path, file.content) });
      }
    }
    entryIndex += s.kind === 'include' ? 2 : 3;
  });
  expect(entryIndex).toBe(history.length);
  return live;
}

describe('#12.1 property: pruning never cuts live file content', () => {
  test.prop([fc.array(step, { minLength: 1, maxLength: 8 })], { numRuns: 200 })(
    '#12.1 for random contents with marker-shaped lines, the latest copy of every file survives whole',
    (steps) => {
      const history = buildHistory(steps);
      const result = optimizeDensity(deepFreeze(history), CONFIG);
      const after = applyDensityResultToArray(history, result);
      for (const { entryIndex, text } of liveInclusions(history, steps)) {
        const entry = result.replacements.get(entryIndex) ?? history[entryIndex];
        expect(result.removals).not.toContain(entryIndex);
        expect(textOf(entry)).toContain(text);
      }
      // Idempotent: a second run finds nothing more to cut.
      const again = optimizeDensity(deepFreeze(after), CONFIG);
      expect(again.replacements.size + again.removals.length).toBe(0);
    },
  );
});
