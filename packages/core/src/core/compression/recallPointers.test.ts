import { describe, expect, it } from 'vitest';
import type { ToolResponseBlock } from '../../services/history/IContent.js';
import { PRUNED_POINTER } from './densityVocabulary.js';
import { staleInclusionNote } from './density/optimize/inclusionDedup.js';
import { summarizeToolResponse, isCompactSummary } from './density/compress/toolResponseSummary.js';
import {
  isPrunedPointer,
  isRecencyPointer,
  prunedPointer,
  recallIdOfResponse,
  recallIdsNamedIn,
  recallSuffix,
} from './recallPointers.js';

const block: ToolResponseBlock = {
  type: 'tool_response',
  callId: 'c1',
  toolName: 'read_file',
  result: 'content',
};
const id = recallIdOfResponse(block);

describe('recall pointers (issue #11.1)', () => {
  it('#11.1 ids are stable, shaped r + 10 hex, and differ with content or call id', () => {
    expect(id).toMatch(/^r[0-9a-f]{10}$/);
    expect(recallIdOfResponse({ ...block })).toBe(id);
    expect(recallIdOfResponse({ ...block, result: 'content!' })).not.toBe(id);
    expect(recallIdOfResponse({ ...block, callId: 'c2' })).not.toBe(id);
  });

  it('#11.1 pointer text of each kind names the id and says how to get it back', () => {
    expect(prunedPointer(block, 'stale', 'recall')).toBe(
      `[Result pruned (stale: file rewritten later) — recall id ${id} to see the original]`,
    );
    expect(prunedPointer(block, 'old', 'recall')).toBe(
      `[Result pruned (old result) — recall id ${id} to see the original]`,
    );
    expect(staleInclusionNote('a.ts', 'duplicate', 'r0123456789')).toBe(
      '[Earlier copy of a.ts removed: a newer copy is included later in the conversation — recall id r0123456789 to see the original]',
    );
    expect(staleInclusionNote('a.ts', 'written', 'r0123456789')).toContain(
      '— recall id r0123456789 to see the original]',
    );
    const call = {
      type: 'tool_call' as const,
      id: 'c1',
      name: 'read_file',
      parameters: { file_path: '/ws/a.ts' },
    };
    expect(summarizeToolResponse(block, call, '/ws', id)).toBe(
      `[read_file a.ts — success, 1 line; recall id ${id}]`,
    );
  });

  it('#11.1 the spec-literal style keeps REQ-HD-007.2 verbatim', () => {
    expect(prunedPointer(block, 'old', 'spec')).toBe(PRUNED_POINTER);
    expect(prunedPointer(block, 'stale')).toBe(PRUNED_POINTER);
  });

  it('#11.1 pointers are recognised (passes leave them alone) and stay compact', () => {
    for (const pointer of [
      prunedPointer(block, 'stale', 'recall'),
      prunedPointer(block, 'old', 'recall'),
      PRUNED_POINTER,
    ]) {
      expect(isPrunedPointer(pointer)).toBe(true);
      expect(isCompactSummary(pointer)).toBe(true);
    }
    expect(isRecencyPointer(prunedPointer(block, 'old', 'recall'))).toBe(true);
    expect(isRecencyPointer(prunedPointer(block, 'stale', 'recall'))).toBe(false);
    expect(
      isPrunedPointer('[Result pruned (old result) — recall id rXYZ to see the original]'),
    ).toBe(false);
  });

  it('#11.1 a long summary line is clipped before the recall id, never through it', () => {
    const call = {
      type: 'tool_call' as const,
      id: 'c1',
      name: 'run_shell_command',
      parameters: { command: 'x'.repeat(400) },
    };
    const line = summarizeToolResponse(
      { ...block, toolName: 'run_shell_command' },
      call,
      '/ws',
      id,
    );
    expect(line.length).toBeLessThanOrEqual(200);
    expect(line.endsWith(`; recall id ${id}]`)).toBe(true);
    expect(isCompactSummary(line)).toBe(true);
  });

  it('#32.6 reads back every recall id a pointer, summary line or trail names, in order', () => {
    const first = recallIdOfResponse(block);
    const second = recallIdOfResponse({ ...block, result: 'other output' });
    const trail = `- npm test: exit 1; recall id ${first}\n- ls${recallSuffix(second)}`;
    expect(recallIdsNamedIn(trail)).toEqual([first, second]);
    expect(recallIdsNamedIn(prunedPointer(block, 'stale', 'recall'))).toEqual([first]);
    expect(recallIdsNamedIn('no ids here: recall id rXYZ')).toEqual([]);
  });
});
