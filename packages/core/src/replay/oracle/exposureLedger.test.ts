import { describe, expect, it } from 'vitest';
import {
  formatFileInclusion,
  formatFileInclusions,
} from '../../core/compression/densityVocabulary.js';
import { human, readFile, replaceInFile, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import type { IContent } from '../../services/history/IContent.js';
import { buildExposureLedger, recordingPosition, replayEntryId } from './exposureLedger.js';

const ROOT = '/work';
const ledgerOf = (contents: readonly IContent[]) =>
  buildExposureLedger(contents, { workspaceRoot: ROOT });

describe('buildExposureLedger', () => {
  it('records a successful read as one exposure of the whole result, keyed by resolved path', () => {
    const ledger = ledgerOf([human('go'), ...readFile('r1', 'src/a.ts', 'const a = 1;\n')]);
    expect(ledger.exposures).toEqual([
      {
        id: 0,
        category: 'reads',
        filePath: 'src/a.ts',
        pathKey: '/work/src/a.ts',
        position: recordingPosition(2, 0),
        partial: false,
        text: 'const a = 1;\n',
        share: 1,
        locator: { kind: 'response', callId: 'r1' },
      },
    ]);
    expect(ledger.writes).toEqual([]);
  });

  it('records successful writes only: a failed edit changes nothing', () => {
    const ledger = ledgerOf([
      ...replaceInFile('w1', '/work/src/a.ts'),
      ...replaceInFile('w2', 'src/b.ts', 'old_string not found'),
      ...toolRoundTrip('d1', 'delete_file', { file_path: 'src/c.ts' }, 'deleted'),
    ]);
    expect(ledger.writes).toEqual([
      { pathKey: '/work/src/a.ts', position: recordingPosition(1, 0) },
      { pathKey: '/work/src/c.ts', position: recordingPosition(5, 0) },
    ]);
  });

  it('marks range reads partial and ignores failed or empty reads', () => {
    const ledger = ledgerOf([
      ...toolRoundTrip('r1', 'read_file', { file_path: 'a.ts', offset: 10, limit: 5 }, 'x\n'),
      ...toolRoundTrip(
        'r2',
        'read_line_range',
        { file_path: 'a.ts', start_line: 1, end_line: 2 },
        'y\n',
      ),
      ...toolRoundTrip('r3', 'read_file', { file_path: 'b.ts' }, '', 'ENOENT'),
      ...toolRoundTrip('r4', 'read_file', { file_path: 'c.ts' }, '   '),
    ]);
    expect(ledger.exposures.map((e) => [e.filePath, e.partial])).toEqual([
      ['a.ts', true],
      ['a.ts', true],
    ]);
  });

  it('splits read_many_files results and human inclusions into one exposure per file', () => {
    const many = formatFileInclusions([
      { path: 'a.md', content: 'alpha' },
      { path: 'b.md', content: 'beta' },
    ]);
    const message: IContent = {
      ...human(`look:\n${formatFileInclusion('c.md', 'gamma')}`),
      metadata: { id: replayEntryId(2) },
    };
    const ledger = ledgerOf([
      ...toolRoundTrip('m1', 'read_many_files', { paths: ['*.md'] }, many),
      message,
    ]);
    expect(ledger.exposures.map((e) => [e.category, e.filePath, e.text, e.locator])).toEqual([
      [
        'reads',
        'a.md',
        `${formatFileInclusion('a.md', 'alpha')}\n`,
        { kind: 'response', callId: 'm1' },
      ],
      ['reads', 'b.md', formatFileInclusion('b.md', 'beta'), { kind: 'response', callId: 'm1' }],
      [
        'inclusions',
        'c.md',
        formatFileInclusion('c.md', 'gamma'),
        { kind: 'human', entryId: 'replay-2', blockIndex: 0 },
      ],
    ]);
  });

  it('counts unambiguous shell reads as their own category and shell writes as writes', () => {
    const ledger = ledgerOf([
      ...toolRoundTrip('s1', 'run_shell_command', { command: 'cat src/a.py src/b.py' }, 'A\nB\n'),
      ...toolRoundTrip('s2', 'run_shell_command', { command: "sed -n '1,5p' src/a.py" }, 'A\n'),
      ...toolRoundTrip('s3', 'run_shell_command', { command: "sed -i 's/a/b/' src/a.py" }, ''),
      ...toolRoundTrip('s4', 'run_shell_command', { command: 'cat missing.py' }, '', 'exit code 1'),
      ...toolRoundTrip('s5', 'run_shell_command', { command: 'pytest -q' }, '3 passed'),
    ]);
    expect(ledger.exposures.map((e) => [e.category, e.filePath, e.share, e.partial])).toEqual([
      ['shellReads', 'src/a.py', 0.5, false],
      ['shellReads', 'src/b.py', 0.5, false],
      ['shellReads', 'src/a.py', 1, true],
    ]);
    expect(ledger.writes).toEqual([
      { pathKey: '/work/src/a.py', position: recordingPosition(5, 0) },
    ]);
  });

  it('#12 judges by its own reading: rm/mv change files, `~` is never a path, windows from the result', () => {
    const ledger = ledgerOf([
      ...readFile('r1', 'a.py', 'x\n'),
      ...toolRoundTrip('s1', 'run_shell_command', { command: 'rm a.py && mv b.py c.py' }, ''),
      ...toolRoundTrip('s2', 'run_shell_command', { command: 'cat ~/notes.txt' }, 'n\n'),
      ...toolRoundTrip('r2', 'read_file', { file_path: 'd.py' }, 'showing lines 1-200; …\nx\n'),
    ]);
    expect(ledger.writes.map((w) => w.pathKey)).toEqual(['/work/a.py', '/work/b.py', '/work/c.py']);
    expect(ledger.exposures.map((e) => [e.filePath, e.partial])).toEqual([
      ['a.py', false],
      ['d.py', true],
    ]);
  });

  it('#12 a read_many_files file whose content has marker-shaped lines is one whole exposure', () => {
    const notes = '--- notes.md ---\ntodo\n--- src/b.ts ---\nmore\n--- End of content ---';
    const b = '--- src/b.ts ---\nexport const b = 1;\n--- End of content ---';
    const ledger = ledgerOf(
      toolRoundTrip('m1', 'read_many_files', { paths: ['notes.md', 'src/b.ts'] }, `${notes}\n${b}`),
    );
    expect(ledger.exposures.map((e) => [e.filePath, e.text])).toEqual([
      ['notes.md', `${notes}\n`],
      ['src/b.ts', b],
    ]);
  });

  it('resolves Windows paths by Windows rules: relative, absolute and translated forms agree', () => {
    const ledger = buildExposureLedger(
      [
        ...readFile('r1', 'src/a.py', 'x = 1\n'),
        ...replaceInFile('w1', 'C:\\Users\\Me\\Proj\\SRC\\a.py'),
        ...replaceInFile('w2', '/C:/Users/Me/Proj/src/a.py'),
      ],
      { workspaceRoot: 'C:\\Users\\Me\\Proj' },
    );
    expect(ledger.exposures[0]?.pathKey).toBe('c:\\users\\me\\proj\\src\\a.py');
    expect(ledger.writes.map((w) => w.pathKey)).toEqual([
      'c:\\users\\me\\proj\\src\\a.py',
      'c:\\users\\me\\proj\\src\\a.py',
    ]);
  });
});
