import { describe, expect, it } from 'vitest';
import { createToolContext } from '../createDefaultToolRegistry.js';
import { createDefaultToolRegistry } from '../createDefaultToolRegistry.js';
import { recallTool } from './recallTool.js';
import {
  FallbackRecallStore,
  InMemoryRecallStore,
  type RecallStore,
} from '../../services/recall/RecallStore.js';
import { RecordingRecallStore } from '../../services/recall/RecordingRecallStore.js';
import { recallIdOfResponse } from '../../core/compression/recallPointers.js';
import { toolRoundTrip } from '../../test-utils/historyBuilders.js';
import { serializeSessionContent } from '../../transcripts/sessionFormat.js';
import type { ToolResponseBlock } from '../../services/history/IContent.js';

const [call, result] = toolRoundTrip('c1', 'read_file', { file_path: 'a.ts' }, 'line 1\nline 2\n');
const response = result.blocks[0] as ToolResponseBlock;
const id = recallIdOfResponse(response);

const run = (store: RecallStore | undefined, recallId = id) =>
  recallTool.execute(
    { id: recallId },
    createToolContext({ workspaceRoot: '/ws', ...(store ? { recallStore: store } : {}) }),
  );

describe('recall tool (issue #11.1)', () => {
  it('#11.1 is registered by default as a read tool that needs no approval', () => {
    const tool = createDefaultToolRegistry().get('recall');
    expect(tool?.kind).toBe('read');
  });

  it('#11.1 returns the exact original from the in-memory store', async () => {
    const memory = new InMemoryRecallStore();
    memory.record(call);
    memory.record(result);
    expect(await run(memory)).toMatchObject({ kind: 'success', output: 'line 1\nline 2\n' });
  });

  it('#11.1 an unknown id is a clear error result, not a throw', async () => {
    const memory = new InMemoryRecallStore();
    const outcome = await run(memory, 'r0000000000');
    expect(outcome).toMatchObject({ kind: 'error', code: 'RECALL_UNKNOWN_ID' });
    expect(outcome.kind === 'error' && outcome.message).toContain('"r0000000000"');
  });

  it('#11.1 recording off (no file) is a clear error result', async () => {
    const store = new RecordingRecallStore({
      file: 's.jsonl',
      readText: () => Promise.resolve(undefined),
    });
    const outcome = await run(store);
    expect(outcome).toMatchObject({ kind: 'error', code: 'RECALL_UNAVAILABLE' });
    expect(outcome.kind === 'error' && outcome.message).toContain('not recorded');
  });

  it('#11.1 a session without any store says recall is unavailable', async () => {
    expect(await run(undefined)).toMatchObject({ kind: 'error', code: 'RECALL_UNAVAILABLE' });
  });

  it('#11.1 an unreadable recording is a clear error result', async () => {
    const store = new RecordingRecallStore({
      file: 's.jsonl',
      readText: () => Promise.reject(new Error('EACCES')),
    });
    const outcome = await run(store);
    expect(outcome).toMatchObject({ kind: 'error', code: 'RECALL_UNAVAILABLE' });
    expect(outcome.kind === 'error' && outcome.message).toContain('EACCES');
  });

  it('#11.1 a corrupt recording: ids in readable lines still resolve, others name the damage', async () => {
    const good = serializeSessionContent(call) + serializeSessionContent(result);
    const store = new RecordingRecallStore({
      file: 's.jsonl',
      readText: () => Promise.resolve(`{not json\n${good}{"kind":"content","content":7}\n`),
    });
    expect(await run(store)).toMatchObject({ kind: 'success', output: 'line 1\nline 2\n' });
    const missing = await run(store, 'r1111111111');
    expect(missing).toMatchObject({ kind: 'error', code: 'RECALL_STORE_CORRUPT' });
    expect(missing.kind === 'error' && missing.message).toContain('2 unreadable line(s)');
  });

  it('#11.1 a store that throws is an error result, never a crash', async () => {
    const store: RecallStore = { lookup: () => Promise.reject(new Error('boom')) };
    expect(await run(store)).toMatchObject({ kind: 'error', code: 'RECALL_UNAVAILABLE' });
  });

  it('#11.1 falls back to memory when the recording is off', async () => {
    const memory = new InMemoryRecallStore();
    memory.record(result);
    const off = new RecordingRecallStore({
      file: 's.jsonl',
      readText: () => Promise.resolve(undefined),
    });
    expect(await run(new FallbackRecallStore(off, memory))).toMatchObject({ kind: 'success' });
    expect(await run(new FallbackRecallStore(off, memory), 'r2222222222')).toMatchObject({
      kind: 'error',
      code: 'RECALL_UNAVAILABLE',
    });
  });
});
