import { describe, expect, it } from 'vitest';
import { toolResult } from '../../test-utils/historyBuilders.js';
import { serializeSessionContent } from '../../transcripts/sessionFormat.js';
import type { IContent } from '../history/IContent.js';
import { recallIdOfResponse } from '../../core/compression/recallPointers.js';
import {
  KEPT_ORIGINALS_KEY,
  keptOriginalsOf,
  recallIdOfKept,
  withKeptOriginals,
  type KeptOriginal,
} from './keptOriginals.js';
import { InMemoryRecallStore } from './RecallStore.js';
import { RecordingRecallStore } from './RecordingRecallStore.js';

const WHOLE = Array.from({ length: 5000 }, (_, i) => `row ${i}`).join('\n');
const kept: KeptOriginal = { callId: 'call_1', toolName: 'run_shell_command', text: WHOLE };

/** A tool entry showing a shortened output and keeping the whole one. */
function shortenedEntry(): IContent {
  const entry = toolResult({ id: 'call_1', name: 'run_shell_command', result: 'row 0\n[… …]' });
  return { ...entry, metadata: withKeptOriginals(entry.metadata, [kept]) };
}

describe('kept originals', () => {
  it('#22.8 the recall id of a kept original is the id of the unshortened response', () => {
    const original = toolResult({ id: 'call_1', name: 'run_shell_command', result: WHOLE });
    const block = original.blocks[0];
    if (block?.type !== 'tool_response') throw new Error('expected a response');
    expect(recallIdOfKept(kept)).toBe(recallIdOfResponse(block));
  });

  it('#22.8 both recall stores return a kept original byte for byte, also from the recording after a resume', async () => {
    const entry = shortenedEntry();
    const memory = new InMemoryRecallStore();
    memory.record(entry);
    const id = recallIdOfKept(kept);
    expect(await memory.lookup(id)).toEqual({ kind: 'found', content: WHOLE });
    const text = `${serializeSessionContent(entry)}\n`;
    const recording = new RecordingRecallStore({
      file: 'session.jsonl',
      readText: () => Promise.resolve(text),
    });
    expect(await recording.lookup(id)).toEqual({ kind: 'found', content: WHOLE });
  });

  it('adds each original once and ignores malformed metadata', () => {
    const twice = withKeptOriginals(withKeptOriginals(undefined, [kept]), [kept]);
    expect(twice?.[KEPT_ORIGINALS_KEY]).toEqual([kept]);
    const bad: IContent = {
      speaker: 'tool',
      blocks: [],
      metadata: { [KEPT_ORIGINALS_KEY]: [{ callId: 1 }, 'x', kept] },
    };
    expect(keptOriginalsOf(bad)).toEqual([kept]);
    expect(withKeptOriginals({ timestamp: 1 }, [])).toEqual({ timestamp: 1 });
  });
});
