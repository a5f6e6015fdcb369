import { describe, expect, it } from 'vitest';
import {
  findFileInclusions,
  formatFileInclusion,
  formatFileInclusions,
  INCLUSION_CLOSE,
  inclusionTag,
} from '../../densityVocabulary.js';
import { ai, human, replaceInFile } from '../../../../test-utils/historyBuilders.js';
import type { DensityConfig } from '../../types.js';
import { textBlock, type IContent } from '../../../../services/history/IContent.js';
import { cutSpans, deduplicateFileInclusions, staleInclusionNote } from './inclusionDedup.js';
import { applyDensityResultToArray } from './applyDensityResultToArray.js';
import { optimizeDensity } from './optimizeDensity.js';
import { deepFreeze } from '../test-utils/deepFreeze.js';

const ROOT = '/workspace';
/** File content long enough that cutting it saves more than its note costs. */
const body = (label: string) => `${label}\n${'const value = compute(input);\n'.repeat(4)}`;
const dedup = (history: readonly IContent[]) =>
  deduplicateFileInclusions(deepFreeze(history), { workspaceRoot: ROOT });
const textOf = (entry: IContent | undefined): string =>
  (entry?.blocks ?? []).map((b) => (b.type === 'text' ? b.text : '')).join('');

/** What the `@` processor sends: the user's words, then the files it inlined. */
const atMessage = (words: string, files: readonly { path: string; content: string }[]) =>
  human(`${words}\n--- Content from referenced files ---\n${formatFileInclusions(files)}\n`);

describe('duplicate @ file inclusion dedup', () => {
  it('REQ-HD-006.1 REQ-HD-006.2 keeps the latest inclusion and cuts the earlier one (shared format module)', () => {
    const history = [
      human(`Look at this\n${formatFileInclusion('src/a.ts', body('v1 body'))}\nthanks`),
      ai('Looked.'),
      human(`Again\n${formatFileInclusion('src/a.ts', body('v2 body'))}`),
    ];
    const result = dedup(history);
    expect(result.pruned).toBe(1);
    expect([...result.replacements.keys()]).toEqual([0]);
    expect(textOf(result.replacements.get(0))).toBe(
      `Look at this\n${staleInclusionNote('src/a.ts')}\nthanks`,
    );
  });

  it('REQ-HD-006.1 only looks at human messages', () => {
    const inclusion = formatFileInclusion('a.ts', body('x'));
    const history: IContent[] = [
      { speaker: 'ai', blocks: [textBlock(inclusion)] },
      human(inclusion),
      { speaker: 'ai', blocks: [textBlock(inclusion)] },
    ];
    expect(dedup(history).pruned).toBe(0);
  });

  it('REQ-HD-006.2 keys paths resolved against the workspace root', () => {
    const history = [
      human(formatFileInclusion('./src/a.ts', body('v1'))),
      human(formatFileInclusion('/workspace/src/a.ts', body('v2'))),
      human(formatFileInclusion('src/A.ts', body('other file: no case folding'))),
    ];
    const result = dedup(history);
    expect(result.pruned).toBe(1);
    expect([...result.replacements.keys()]).toEqual([0]);
  });

  it('REQ-HD-006.2 keeps the later of two inclusions of one file in the same block', () => {
    const text = formatFileInclusions([
      { path: 'a.ts', content: body('first') },
      { path: 'a.ts', content: body('second') },
    ]);
    const result = dedup([human(text)]);
    expect(textOf(result.replacements.get(0))).toBe(
      `${staleInclusionNote('a.ts')}\n${formatFileInclusion('a.ts', body('second'))}`,
    );
  });

  it('REQ-HD-006.3 uses replacements, keeps the other text and files of the message', () => {
    const history = [
      atMessage('compare these', [
        { path: 'a.ts', content: body('A1') },
        { path: 'b.ts', content: body('B1') },
      ]),
      atMessage('now a again', [{ path: 'a.ts', content: body('A2') }]),
    ];
    const result = dedup(history);
    expect(result.removals.size).toBe(0);
    const text = textOf(result.replacements.get(0));
    expect(text).toContain('compare these');
    expect(text).toContain(formatFileInclusion('b.ts', body('B1')));
    expect(text).not.toContain('A1');
  });

  it('REQ-HD-006.3 keeps other blocks and metadata of the message', () => {
    const entry: IContent = {
      speaker: 'human',
      blocks: [
        textBlock('see'),
        { type: 'media', mimeType: 'image/png', data: 'xx', encoding: 'base64' },
        textBlock(formatFileInclusion('a.ts', body('old'))),
      ],
      metadata: { timestamp: 3 },
    };
    const result = dedup([entry, human(formatFileInclusion('a.ts', body('new')))]);
    const replaced = result.replacements.get(0);
    expect(replaced?.metadata).toEqual({ timestamp: 3 });
    expect(replaced?.blocks.slice(0, 2)).toEqual(entry.blocks.slice(0, 2));
    expect(replaced?.blocks[2]).toEqual(textBlock(staleInclusionNote('a.ts')));
  });

  it('REQ-HD-006.4 does nothing when the dedup pass is off', () => {
    const history = [
      human(formatFileInclusion('a.ts', body('1'))),
      human(formatFileInclusion('a.ts', body('2'))),
    ];
    const off = optimizeDensity(history, {
      readWritePruning: true,
      fileDedupe: false,
      recencyPruning: false,
      recencyRetention: 3,
      workspaceRoot: ROOT,
    });
    expect(off.replacements.size).toBe(0);
    expect(off.metadata.dedup).toBe(0);
  });

  const [openA = '', , closeA = ''] = formatFileInclusion('a.ts', 'body').split('\n');
  it.each([
    ['no closing marker', `${openA}\nbody\n`],
    ['only a closing marker', `body\n${closeA}\n`],
    ['a closer before the opener', `${closeA}\n${openA}\nbody\n`],
    ['markers not on their own line', `see ${openA} body\n ${closeA}`],
    ['untagged (legacy) markers', `--- a.ts ---\n${body('x')}${INCLUSION_CLOSE}\n`],
  ])('REQ-HD-006.5 leaves text with %s unchanged', (_label, text) => {
    const history = [human(text), human(formatFileInclusion('a.ts', body('latest')))];
    expect(dedup(history).replacements.size).toBe(0);
  });

  it('REQ-HD-006.5 an opener followed by another opener is not an inclusion', () => {
    const text = `${openA}\nnot closed\n${formatFileInclusion('b.ts', body('B'))}\n`;
    const history = [
      human(text),
      human(formatFileInclusion('a.ts', body('A'))),
      human(formatFileInclusion('b.ts', body('B2'))),
    ];
    const result = dedup(history);
    expect(result.pruned).toBe(1);
    expect(textOf(result.replacements.get(0))).toBe(
      `${openA}\nnot closed\n${staleInclusionNote('b.ts')}\n`,
    );
  });

  it('prior-art A1: two stale inclusions in one block are cut correctly', () => {
    const first = atMessage('start', [
      { path: 'a.ts', content: body('A1 line\nA1 more') },
      { path: 'keep.ts', content: body('K') },
      { path: 'b.ts', content: body('B1') },
    ]);
    const history = [
      first,
      atMessage('again', [
        { path: 'b.ts', content: body('B2') },
        { path: 'a.ts', content: body('A2') },
      ]),
    ];
    const result = dedup(history);
    expect(result.pruned).toBe(2);
    expect(textOf(result.replacements.get(0))).toBe(
      'start\n--- Content from referenced files ---\n' +
        `${staleInclusionNote('a.ts')}\n${formatFileInclusion('keep.ts', body('K'))}\n${staleInclusionNote('b.ts')}\n`,
    );
  });

  it('prior-art A2: a multi-file block with one marker pair per file dedups file by file', () => {
    const multi = formatFileInclusions([
      { path: 'a.ts', content: body('A') },
      { path: 'b.ts', content: body('B') },
      { path: 'c.ts', content: body('C') },
    ]);
    expect(findFileInclusions(multi).map((s) => s.filePath)).toEqual(['a.ts', 'b.ts', 'c.ts']);
    const result = dedup([human(multi), human(formatFileInclusion('b.ts', body('B2')))]);
    expect(result.pruned).toBe(1);
    const text = textOf(result.replacements.get(0));
    expect(findFileInclusions(text).map((s) => s.filePath)).toEqual(['a.ts', 'c.ts']);
  });

  it('prior-art §D: the referenced-files header never swallows the files or keys them on itself', () => {
    const history = [
      atMessage('one', [
        { path: 'a.ts', content: body('A') },
        { path: 'b.ts', content: body('B') },
      ]),
      atMessage('two', [{ path: 'c.ts', content: body('C') }]),
    ];
    const result = dedup(history);
    expect(result.pruned).toBe(0);
    expect(result.replacements.size).toBe(0);
  });

  it('leaves a block unchanged when cutting would make an unclosed opener pair with a stray closer', () => {
    // The stray opener's tag is made for what would lie between it and the closer after the cut.
    const tag = inclusionTag(`${staleInclusionNote('a.ts')}\ntail\n`);
    const inclusion = formatFileInclusion('a.ts', body('A'));
    const text = `--- H --- [${tag}]\n${inclusion}\ntail\n${INCLUSION_CLOSE} [${tag}]\n`;
    const history = [human(text), human(formatFileInclusion('a.ts', body('A2')))];
    expect(dedup(history).replacements.size).toBe(0);
    expect(cutSpans(text, findFileInclusions(text))).toBeUndefined();
  });

  it('the note is one line that is not a marker, so a second run finds nothing', () => {
    const note = staleInclusionNote('src/a.ts');
    expect(note).not.toContain('\n');
    expect(note.startsWith('--- ')).toBe(false);
    expect(note).toBe(
      '[Earlier copy of src/a.ts removed: a newer copy is included later in the conversation]',
    );
    const history = [
      human(formatFileInclusion('src/a.ts', body('1'))),
      human(formatFileInclusion('src/a.ts', body('2'))),
    ];
    const once = optimizeDensity(history, {
      readWritePruning: false,
      fileDedupe: true,
      recencyPruning: false,
      recencyRetention: 3,
      workspaceRoot: ROOT,
    });
    expect(once.metadata.dedup).toBe(1);
    const applied = applyDensityResultToArray(history, once);
    expect(dedup(applied).replacements.size).toBe(0);
  });

  it('handles CRLF text and a closer at the very end without a newline', () => {
    const crlfBody = body('A').replaceAll('\n', '\r\n');
    const tag = inclusionTag(crlfBody);
    const crlf = `--- a.ts --- [${tag}]\r\n${crlfBody}${INCLUSION_CLOSE} [${tag}]\r\nafter`;
    const result = dedup([human(crlf), human(formatFileInclusion('a.ts', body('new')))]);
    expect(textOf(result.replacements.get(0))).toBe(`${staleInclusionNote('a.ts')}\nafter`);
    const atEnd = dedup([
      human(`x\n${formatFileInclusion('a.ts', body('A'))}`),
      human(formatFileInclusion('a.ts', body('n'))),
    ]);
    expect(textOf(atEnd.replacements.get(0))).toBe(`x\n${staleInclusionNote('a.ts')}`);
  });

  it('leaves a stale inclusion no longer than its note (cutting it would save nothing)', () => {
    const tiny = formatFileInclusion('a.ts', '');
    expect(tiny.length).toBeLessThan(staleInclusionNote('a.ts').length);
    expect(dedup([human(tiny), human(formatFileInclusion('a.ts', body('new')))]).pruned).toBe(0);
  });

  it('shortens a very long path in the note', () => {
    const long = `${'d/'.repeat(100)}file.ts`;
    const note = staleInclusionNote(long);
    expect(note.length).toBeLessThan(200);
    expect(note).toContain('file.ts');
  });
});

describe('@ inclusions made stale by a later write (beyond REQ-HD-006)', () => {
  const config = (overrides: Partial<DensityConfig> = {}): DensityConfig => ({
    readWritePruning: true,
    fileDedupe: true,
    recencyPruning: false,
    recencyRetention: 3,
    workspaceRoot: ROOT,
    ...overrides,
  });
  const included = atMessage('Please fix', [{ path: 'src/a.ts', content: body('A') }]);

  it('cuts an inclusion whose file a later successful write changed, saying so', () => {
    const history = [included, ...replaceInFile('w', 'src/a.ts'), ai('done')];
    const result = optimizeDensity(history, config());
    expect(result.metadata.dedup).toBe(1);
    const after = textOf(result.replacements.get(0));
    expect(after).toContain('Please fix');
    expect(after).toContain(staleInclusionNote('src/a.ts', 'written'));
    expect(after).not.toContain('const value = compute(input);');
  });

  it('keeps it when the write failed, came before it, or touched another file', () => {
    const failed = [included, ...replaceInFile('w', 'src/a.ts', 'old_string not found')];
    const before = [...replaceInFile('w', 'src/a.ts'), included];
    const other = [included, ...replaceInFile('w', 'src/b.ts')];
    for (const history of [failed, before, other]) {
      expect(optimizeDensity(history, config()).metadata.dedup).toBe(0);
    }
  });

  it('is part of READ→WRITE pruning: off with the readWrite pass off, on with dedup off', () => {
    const history = [included, ...replaceInFile('w', 'src/a.ts')];
    expect(
      optimizeDensity(
        history,
        config({ readWritePruning: false, fileDedupe: true, recencyPruning: false }),
      ).metadata.dedup,
    ).toBe(0);
    expect(
      optimizeDensity(
        history,
        config({ readWritePruning: true, fileDedupe: false, recencyPruning: false }),
      ).metadata.dedup,
    ).toBe(1);
  });

  it('a newer inclusion after the write survives; the older copy goes', () => {
    const again = atMessage('Look again', [{ path: 'src/a.ts', content: body('A2') }]);
    const history = [included, ...replaceInFile('w', 'src/a.ts'), again];
    const after = applyDensityResultToArray(history, optimizeDensity(history, config()));
    expect(textOf(after[0])).toContain(staleInclusionNote('src/a.ts', 'written'));
    expect(textOf(after[3])).toBe(textOf(again));
    expect(optimizeDensity(after, config()).replacements.size).toBe(0);
  });
});

describe('stale inclusions: the latest writes, found lazily', () => {
  it('#24.4 are asked for once when the history holds an inclusion, never when it holds none', () => {
    let asked = 0;
    const latestWrites = () => {
      asked++;
      return new Map([['/workspace/src/a.ts', 2]]);
    };
    const included = [human(formatFileInclusion('src/a.ts', body('v1'))), ai('ok'), ai('wrote')];
    const result = deduplicateFileInclusions(deepFreeze(included), {
      workspaceRoot: ROOT,
      latestWrites,
    });
    expect(textOf(result.replacements.get(0))).toContain(staleInclusionNote('src/a.ts', 'written'));
    expect(asked).toBe(1);
    deduplicateFileInclusions(deepFreeze([human('no inclusion'), ai('ok')]), {
      workspaceRoot: ROOT,
      latestWrites,
    });
    expect(asked).toBe(1);
  });
});
