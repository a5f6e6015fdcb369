import { describe, expect, it } from 'vitest';
import { readFile, replaceInFile, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import type { IContent } from '../../services/history/IContent.js';
import { classifyLoss, indexLedger, isStaleAt } from './classifyLoss.js';
import { buildExposureLedger, recordingPosition } from './exposureLedger.js';

function setup(contents: readonly IContent[]) {
  const index = indexLedger(buildExposureLedger(contents, { workspaceRoot: '/w' }));
  const exposure = (n: number) => {
    const found = index.ledger.exposures[n];
    if (found === undefined) throw new Error(`no exposure ${n}`);
    return found;
  };
  return { index, exposure };
}

const END = Number.POSITIVE_INFINITY;
const nobody = () => false;

describe('classifyLoss', () => {
  it('a read removed after a later successful write of its file is stale', () => {
    const { index, exposure } = setup([
      ...readFile('r1', 'a.ts', 'v1'),
      ...replaceInFile('w1', 'a.ts'),
    ]);
    expect(classifyLoss(index, exposure(0), END, nobody)).toBe('stale');
    expect(isStaleAt(index, exposure(0), END)).toBe(true);
  });

  it('a read removed before its file is written is live content lost', () => {
    const { index, exposure } = setup([
      ...readFile('r1', 'a.ts', 'v1'),
      ...replaceInFile('w1', 'a.ts'),
    ]);
    const beforeWrite = recordingPosition(2, 0);
    expect(classifyLoss(index, exposure(0), beforeWrite, nobody)).toBe('live');
    expect(isStaleAt(index, exposure(0), beforeWrite)).toBe(false);
  });

  it('a failed write makes nothing stale', () => {
    const { index, exposure } = setup([
      ...readFile('r1', 'a.ts', 'v1'),
      ...replaceInFile('w1', 'a.ts', 'old_string not found'),
    ]);
    expect(classifyLoss(index, exposure(0), END, nobody)).toBe('live');
  });

  it('a write of another file, or an earlier write, does not make a read stale', () => {
    const { index, exposure } = setup([
      ...replaceInFile('w0', 'a.ts'),
      ...readFile('r1', 'a.ts', 'v1'),
      ...replaceInFile('w1', 'b.ts'),
    ]);
    expect(classifyLoss(index, exposure(0), END, nobody)).toBe('live');
  });

  it('an older copy is duplicate while a newer whole copy of the unchanged file is in context', () => {
    const { index, exposure } = setup([
      ...readFile('r1', 'a.ts', 'v1'),
      ...readFile('r2', 'a.ts', 'v1'),
    ]);
    const present = (id: number) => id === exposure(1).id;
    expect(classifyLoss(index, exposure(0), END, present)).toBe('duplicate');
    expect(classifyLoss(index, exposure(0), END, nobody)).toBe('live');
  });

  it('a newer copy that is not in context yet does not make an older one duplicate', () => {
    const { index, exposure } = setup([
      ...readFile('r1', 'a.ts', 'v1'),
      ...readFile('r2', 'a.ts', 'v1'),
    ]);
    const everyone = () => true;
    expect(classifyLoss(index, exposure(0), recordingPosition(2, 0), everyone)).toBe('live');
  });

  it('a newer partial read covers an older copy only when it shows the same text', () => {
    const { index, exposure } = setup([
      ...readFile('r1', 'a.ts', 'line 1\nline 2\n'),
      ...toolRoundTrip('r2', 'read_file', { file_path: 'a.ts', offset: 2, limit: 1 }, 'line 2\n'),
      ...toolRoundTrip('r3', 'read_file', { file_path: 'a.ts', offset: 2, limit: 1 }, 'line 2\n'),
    ]);
    const everyone = () => true;
    expect(classifyLoss(index, exposure(0), END, everyone)).toBe('live');
    expect(classifyLoss(index, exposure(1), END, everyone)).toBe('duplicate');
  });
});
