import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { IContent, ToolResponseBlock } from '../../services/history/IContent.js';
import { human, readFile, replaceInFile, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import { pruneReadWritePairs } from './density/optimize/readWritePruning.js';
import { isPrunedPointer, recallIdOfResponse, STALE_SPECIFICS_LEAD } from './recallPointers.js';
import { shorterInTokens } from './shorterInTokens.js';
import { stalePointer } from './stalePointer.js';

/** A module of `count` exported functions, each calling a helper by name. */
function moduleText(count: number): string {
  return Array.from(
    { length: count },
    (_, i) =>
      `export function insertMediaFile${i}(row: MediaRow): Result {\n  return database.execute(insertStatement${i}, row);\n}\n`,
  ).join('\n');
}

const response = (text: string): ToolResponseBlock => ({
  type: 'tool_response',
  callId: 'r1',
  toolName: 'read_file',
  result: text,
});

function staleResult(history: readonly IContent[]): unknown {
  const { replacements } = pruneReadWritePairs(history, {
    workspaceRoot: '/w',
    pointerStyle: 'recall',
    shellFileOps: true,
  });
  const after = history.map((entry, index) => replacements.get(index) ?? entry);
  return after[2]?.blocks[0]?.type === 'tool_response' ? after[2].blocks[0].result : undefined;
}

describe('the pointer of a read a later write made stale', () => {
  it('#33 #35 a read edited in part keeps what it declared beside its recall id, as the proxy’s pointer does', () => {
    const text = moduleText(40);
    const history = [
      human('edit it'),
      ...readFile('r1', 'src/db.ts', text),
      ...replaceInFile('w1', 'src/db.ts'),
    ];
    const pointer = staleResult(history) as string;
    const id = recallIdOfResponse(response(text));
    expect(
      pointer.startsWith(
        `[Result pruned (stale: file rewritten later) — recall id ${id} to see the original${STALE_SPECIFICS_LEAD}`,
      ),
    ).toBe(true);
    expect(pointer).toContain('insertMediaFile0');
    expect(isPrunedPointer(pointer)).toBe(true);
    expect(shorterInTokens(pointer, text)).toBe(true);
  });

  it('#33 #35 a shell read of a range names its declarations at their lines in the file, counted from where its output starts', () => {
    const text = moduleText(40);
    const history = [
      human('edit it'),
      ...toolRoundTrip('s1', 'run_shell_command', { command: "sed -n '240,420p' src/db.ts" }, text),
      ...replaceInFile('w1', 'src/db.ts'),
    ];
    const pointer = staleResult(history) as string;
    expect(pointer).toContain(STALE_SPECIFICS_LEAD);
    // The module's first declaration is its first line: line 240 of the file.
    expect(pointer).toContain('insertMediaFile0:240');
    expect(pointer).toContain('insertMediaFile1:244');
  });

  it('#35 a read too short to carry its specifics for fewer tokens gets the bare pointer', () => {
    const text = moduleText(1);
    const pointer = stalePointer(response(text));
    expect(pointer).not.toContain(STALE_SPECIFICS_LEAD);
    expect(isPrunedPointer(pointer)).toBe(true);
  });

  test.prop([fc.string({ maxLength: 3_000 })])(
    '#35 a stale pointer is a pure function of the read, recognised as a pointer, never more tokens than the read when it carries specifics',
    (text) => {
      const pointer = stalePointer(response(text));
      expect(stalePointer(response(text))).toBe(pointer);
      expect(isPrunedPointer(pointer)).toBe(true);
      if (pointer.includes(STALE_SPECIFICS_LEAD)) expect(shorterInTokens(pointer, text)).toBe(true);
    },
  );
});
