import { describe, expect, it } from 'vitest';
import { formatFileInclusion } from '../../core/compression/densityVocabulary.js';
import { PRUNED_POINTER } from '../../core/compression/densityVocabulary.js';
import { readFile, replaceInFile, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import type { IContent } from '../../services/history/IContent.js';
import { buildExposureLedger, recordingPosition, replayEntryId } from './exposureLedger.js';
import { ExposureTracker } from './ExposureTracker.js';
import { unchangedReadText } from '../../core/compression/density/entry/unchangedRead.js';
import { unchangedInclusionNote } from '../../core/compression/density/entry/unchangedInclusion.js';

const A_V1 = 'export const a = 1;\n'.repeat(5);
const NOTES = 'keep the parser streaming\n'.repeat(4);

function humanWithId(index: number, text: string): IContent {
  return {
    speaker: 'human',
    blocks: [{ type: 'text', text }],
    metadata: { id: replayEntryId(index) },
  };
}

/** Records every entry, advancing the position as a replay would. */
function replayAll(contents: readonly IContent[]) {
  const ledger = buildExposureLedger(contents, { workspaceRoot: '/w' });
  const tracker = new ExposureTracker(ledger, (e) => e.text.length * e.share);
  contents.forEach((entry, index) => {
    tracker.advance(recordingPosition(index, 0));
    tracker.onRecorded(entry);
  });
  return { tracker, ledger };
}

function withResult(entry: IContent, result: unknown): IContent {
  return {
    ...entry,
    blocks: entry.blocks.map((b) => (b.type === 'tool_response' ? { ...b, result } : b)),
  };
}

describe('ExposureTracker', () => {
  it('REQ-HD-005 a read pruned after its file was written counts as stale reclaimed, not live lost', () => {
    const contents = [...readFile('r1', 'a.ts', A_V1), ...replaceInFile('w1', 'a.ts')];
    const { tracker } = replayAll(contents);
    tracker.onEdit(contents, [contents[2]!, contents[3]!], 'density');
    const totals = tracker.totals();
    expect(totals.staleTokens).toEqual({ reads: A_V1.length, inclusions: 0, shellReads: 0 });
    expect(totals.staleReclaimedTokens).toEqual({
      reads: A_V1.length,
      inclusions: 0,
      shellReads: 0,
    });
    expect(totals.lostTokens.density).toEqual({ stale: A_V1.length, duplicate: 0, live: 0 });
    expect(totals.losses.map((l) => l.verdict)).toEqual(['stale']);
  });

  it('a read pointered before its file is written is live content lost, by its cause', () => {
    const read = readFile('r1', 'a.ts', A_V1);
    const ledger = buildExposureLedger([...read, ...replaceInFile('w1', 'a.ts')], {
      workspaceRoot: '/w',
    });
    const tracker = new ExposureTracker(ledger, (e) => e.text.length);
    tracker.advance(recordingPosition(1, 0));
    read.forEach((entry) => tracker.onRecorded(entry));
    const pointered = withResult(read[1], PRUNED_POINTER);
    tracker.onEdit(read, [read[0], pointered], 'compression');
    const totals = tracker.totals();
    expect(totals.lostTokens.compression.live).toBe(A_V1.length);
    expect(totals.staleReclaimedTokens.reads).toBe(0);
    // It is stale by the end of the session, but was removed while still live.
    expect(totals.staleTokens.reads).toBe(A_V1.length);
  });

  it('an edit that leaves a response block untouched loses nothing', () => {
    const contents = [...readFile('r1', 'a.ts', A_V1), ...readFile('r2', 'b.ts', 'b\n'.repeat(20))];
    const { tracker } = replayAll(contents);
    const rebuilt = contents.map((entry) => ({ ...entry }));
    tracker.onEdit(contents, rebuilt, 'density');
    expect(tracker.totals().losses).toEqual([]);
  });

  it('cutting the older of two identical inclusions is a duplicate; losing the newer too is live', () => {
    const inclusion = formatFileInclusion('notes.md', NOTES);
    const first = humanWithId(0, `remember:\n${inclusion}`);
    const second = humanWithId(1, `again:\n${inclusion}`);
    const { tracker } = replayAll([first, second]);
    const cut: IContent = { ...first, blocks: [{ type: 'text', text: 'remember:\n[cut]' }] };
    tracker.onEdit([first, second], [cut, second], 'density');
    expect(tracker.totals().lostTokens.density).toEqual({
      stale: 0,
      duplicate: inclusion.length,
      live: 0,
    });
    tracker.onEdit([cut, second], [], 'compression');
    expect(tracker.totals().lostTokens.compression).toEqual({
      stale: 0,
      duplicate: 0,
      live: inclusion.length,
    });
  });

  it('two copies in one message: the older one is reported lost when one is cut', () => {
    const inclusion = formatFileInclusion('notes.md', NOTES);
    const both = humanWithId(0, `${inclusion}\nand\n${inclusion}`);
    const { tracker, ledger } = replayAll([both]);
    expect(ledger.exposures).toHaveLength(2);
    const cut: IContent = { ...both, blocks: [{ type: 'text', text: `[cut]\nand\n${inclusion}` }] };
    tracker.onEdit([both], [cut], 'density');
    const { losses } = tracker.totals();
    expect(losses).toHaveLength(1);
    expect(losses[0]?.exposure.id).toBe(0);
    expect(losses[0]?.verdict).toBe('duplicate');
  });

  it('an inclusion of a file written later is stale; one of an unwritten file stays unreclaimed', () => {
    const message = humanWithId(
      0,
      `${formatFileInclusion('a.ts', A_V1)}\n${formatFileInclusion('b.ts', NOTES)}`,
    );
    const contents = [message, ...replaceInFile('w1', 'a.ts')];
    const { tracker } = replayAll(contents);
    tracker.onEdit(contents, contents.slice(1), 'compression');
    const totals = tracker.totals();
    const aSpan = formatFileInclusion('a.ts', A_V1).length + 1;
    expect(totals.staleTokens.inclusions).toBe(aSpan);
    expect(totals.staleReclaimedTokens.inclusions).toBe(aSpan);
    expect(totals.lostTokens.compression.live).toBe(formatFileInclusion('b.ts', NOTES).length);
  });

  it('a multi-file shell read splits its tokens between its files', () => {
    const contents = [
      ...toolRoundTrip('s1', 'run_shell_command', { command: 'cat x.py y.py' }, 'X'.repeat(40)),
      ...toolRoundTrip('s2', 'run_shell_command', { command: 'echo hi > x.py' }, ''),
    ];
    const { tracker } = replayAll(contents);
    tracker.onEdit(contents, [contents[2]!, contents[3]!], 'density');
    const totals = tracker.totals();
    expect(totals.staleTokens.shellReads).toBe(20);
    expect(totals.staleReclaimedTokens.shellReads).toBe(20);
    expect(totals.lostTokens.density.live).toBe(20);
  });

  it('#14.2 a re-read answered "unchanged since call X" brings no exposure; losing the named copy is live', () => {
    const contents = [...readFile('r1', 'a.ts', A_V1), ...readFile('r2', 'a.ts', A_V1)];
    const ledger = buildExposureLedger(contents, { workspaceRoot: '/w' });
    const tracker = new ExposureTracker(ledger, (e) => e.text.length);
    const recorded = [
      contents[0]!,
      contents[1]!,
      contents[2]!,
      withResult(contents[3]!, unchangedReadText('r1')),
    ];
    recorded.forEach((entry, index) => {
      tracker.advance(recordingPosition(index, 0));
      tracker.onRecorded(entry);
    });
    expect(tracker.totals().exposureTokens.reads).toBe(A_V1.length);
    tracker.onEdit(recorded, recorded.slice(2), 'compression');
    expect(tracker.totals().lostTokens.compression).toEqual({
      stale: 0,
      duplicate: 0,
      live: A_V1.length,
    });
  });

  it('#14.2 an @ inclusion recorded as a note naming an earlier copy brings no exposure', () => {
    const contents = [
      humanWithId(0, `see\n${formatFileInclusion('notes.md', NOTES)}`),
      humanWithId(1, `again\n${formatFileInclusion('notes.md', NOTES)}`),
    ];
    const ledger = buildExposureLedger(contents, { workspaceRoot: '/w' });
    const tracker = new ExposureTracker(ledger, (e) => e.text.length);
    const recorded = [contents[0]!, humanWithId(1, `again\n${unchangedInclusionNote('notes.md')}`)];
    recorded.forEach((entry, index) => {
      tracker.advance(recordingPosition(index, 0));
      tracker.onRecorded(entry);
    });
    const one = ledger.exposures[0]!.text.length;
    expect(ledger.exposures).toHaveLength(2);
    expect(tracker.totals().exposureTokens.inclusions).toBe(one);
    // Losing the one copy in context loses it live: the note does not hold the content.
    tracker.onEdit(recorded, recorded.slice(1), 'compression');
    expect(tracker.totals().lostTokens.compression.live).toBe(one);
  });
});
