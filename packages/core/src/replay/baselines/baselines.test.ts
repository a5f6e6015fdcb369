import { describe, expect, it } from 'vitest';
import { fc, test } from '@fast-check/vitest';
import { PRUNED_POINTER, formatFileInclusion } from '../../core/compression/densityVocabulary.js';
import {
  human,
  readFile,
  toolCall,
  toolResult,
  toolRoundTrip,
} from '../../test-utils/historyBuilders.js';
import type { IContent } from '../../services/history/IContent.js';
import { applyDensityResultToArray } from '../../core/compression/density/optimize/applyDensityResultToArray.js';
import { EMPTY_DENSITY_METADATA } from '../../core/compression/types.js';
import { maskOldObservations } from './observationMasking.js';
import { keepRecentToolResults } from './keepRecentToolResults.js';
import { pruneOldToolOutput } from './pruneOldToolOutput.js';
import { clineContextBudget, dedupFileCopies, FILE_COPY_NOTICE } from './dedupFileCopies.js';
import { withShellFileOps } from './withShellFileOps.js';
import { NoContextManagement } from './NoContextManagement.js';
import { HighDensityStrategy } from '../../core/compression/HighDensityStrategy.js';

const body = (n: number, size = 60) => `line ${n}\n`.repeat(size);
/** Exactly `chars` characters. */
const sized = (n: number, chars: number) => `result ${n} `.padEnd(chars, '.');

/** `count` single-call turns reading f0…f(count-1). */
function readTurns(count: number, size = 60): IContent[] {
  return Array.from({ length: count }, (_, i) =>
    readFile(`r${i}`, `f${i}.ts`, body(i, size)),
  ).flat();
}

function apply(
  history: readonly IContent[],
  replacements: ReadonlyMap<number, IContent>,
): IContent[] {
  return applyDensityResultToArray(history, {
    removals: [],
    replacements,
    metadata: EMPTY_DENSITY_METADATA,
  });
}

function results(history: readonly IContent[]): unknown[] {
  return history.flatMap((e) =>
    e.blocks.flatMap((b) => (b.type === 'tool_response' ? [b.result] : [])),
  );
}

describe('peer baselines', () => {
  it('observation masking keeps the results of the newest 10 tool-calling turns', () => {
    const history = [human('go'), ...readTurns(13)];
    const edited = apply(history, maskOldObservations(history));
    const kept = results(edited).map((r) => r !== PRUNED_POINTER);
    expect(kept).toEqual([false, false, false, ...Array<boolean>(10).fill(true)]);
    expect(maskOldObservations(edited).size).toBe(0);
  });

  it('masking counts a turn with several calls once', () => {
    const parallel = [
      toolCall([
        { id: 'a', name: 'read_file', parameters: { file_path: 'a' } },
        { id: 'b', name: 'read_file', parameters: { file_path: 'b' } },
      ]),
      toolResult([
        { id: 'a', name: 'read_file', result: body(1) },
        { id: 'b', name: 'read_file', result: body(2) },
      ]),
    ];
    const history = [...parallel, ...readTurns(10)];
    expect(maskOldObservations(history).size).toBe(1);
    expect(maskOldObservations(history, 11).size).toBe(0);
  });

  it('keep-3 clears all but the newest three results only above the trigger', () => {
    const history = readTurns(6);
    expect(keepRecentToolResults(history, 100_000).size).toBe(0);
    const edited = apply(history, keepRecentToolResults(history, 100_001));
    expect(results(edited).map((r) => r === PRUNED_POINTER)).toEqual([
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('OpenCode prune protects the newest 40k estimated tokens and prunes only when ≥ 20k is freed', () => {
    // Each result is 10,000 chars = 2,500 estimated tokens.
    const turns = (count: number) =>
      Array.from({ length: count }, (_, i) =>
        readFile(`r${i}`, `f${i}.ts`, sized(i, 10_000)),
      ).flat();
    const history = turns(30);
    const chars = (results(history)[0] as string).length;
    expect(chars).toBe(10_000);
    const edited = apply(history, pruneOldToolOutput(history));
    const pruned = results(edited).filter((r) => r === PRUNED_POINTER).length;
    // 16 results (40,000 tokens) are protected; the 14 older ones (35,000 ≥ 20,000) are pruned.
    expect(pruned).toBe(14);
    expect(pruneOldToolOutput(turns(22)).size).toBe(0); // 6 × 2,500 = 15,000 < 20,000
    expect(pruneOldToolOutput(edited).size).toBe(0); // stops at the pruned results
  });

  it('Cline budget: fixed margins for known windows, else 80%', () => {
    expect(clineContextBudget(128_000)).toBe(98_000);
    expect(clineContextBudget(200_000)).toBe(160_000);
    expect(clineContextBudget(64_000)).toBe(37_000);
    expect(clineContextBudget(32_000)).toBe(25_600);
    expect(clineContextBudget(1_000_000)).toBe(960_000);
  });

  it('Cline dedup over budget: all but the newest copy of each file, reads and @ inclusions alike', () => {
    const history = [
      ...readFile('r1', 'a.ts', body(1)),
      ...toolRoundTrip('r2', 'read_file', { file_path: 'a.ts', offset: 5, limit: 2 }, 'line 1\n'),
      human(`see:\n${formatFileInclusion('a.ts', body(1))}`),
      ...readFile('r3', 'b.ts', body(2)),
      ...readFile('r4', 'a.ts', body(1)),
    ];
    expect(dedupFileCopies(history, { workspaceRoot: '/w', overBudget: false }).size).toBe(0);
    const replacements = dedupFileCopies(history, { workspaceRoot: '/w', overBudget: true });
    expect([...replacements.keys()].sort()).toEqual([1, 4]);
    const edited = apply(history, replacements);
    expect(results(edited)).toEqual([FILE_COPY_NOTICE, 'line 1\n', body(2), body(1)]);
    const text = edited[4]?.blocks[0];
    expect(text?.type === 'text' && text.text).toBe(
      'see:\n[Earlier copy of a.ts removed: a newer copy is included later in the conversation]',
    );
    expect(dedupFileCopies(edited, { workspaceRoot: '/w', overBudget: true }).size).toBe(0);
  });

  test.prop([fc.integer({ min: 0, max: 40 }), fc.integer({ min: 1, max: 12 })], { numRuns: 100 })(
    'masking is idempotent and never touches the calls',
    (turns, keep) => {
      const history = readTurns(turns, 10);
      const once = apply(history, maskOldObservations(history, keep));
      expect(maskOldObservations(once, keep).size).toBe(0);
      const calls = (h: readonly IContent[]) =>
        h.flatMap((e) => e.blocks.filter((b) => b.type === 'tool_call'));
      expect(calls(once)).toEqual(calls(history));
      expect(results(once).filter((r) => r !== PRUNED_POINTER).length).toBe(Math.min(turns, keep));
    },
  );

  it('withShellFileOps turns shellFileOps on for optimize only', () => {
    const history = [
      ...toolRoundTrip('s1', 'run_shell_command', { command: 'cat a.py' }, body(1)),
      ...toolRoundTrip('s2', 'run_shell_command', { command: "sed -i 's/a/b/' a.py" }, ''),
    ];
    const config = {
      readWritePruning: true,
      fileDedupe: true,
      recencyPruning: false,
      recencyRetention: 3,
      workspaceRoot: '/w',
    };
    const plain = new HighDensityStrategy();
    expect(plain.optimize(history, config).removals).toEqual([]);
    expect(withShellFileOps(plain).optimize?.(history, config).removals).toEqual([0, 1]);
  });

  it("#12 fair baselines: output stored in a failed call's error field is cleared too", () => {
    // A failing shell run (mini-swe-agent style): the output is in `error`, the result is empty.
    const failing = (i: number) =>
      toolRoundTrip(`e${i}`, 'run_shell_command', { command: 'pytest' }, '', sized(i, 10_000));
    const history = Array.from({ length: 30 }, (_, i) => failing(i)).flat();
    const errors = (h: readonly IContent[]) =>
      h.flatMap((e) => e.blocks.flatMap((b) => (b.type === 'tool_response' ? [b.error] : [])));
    const masked = errors(apply(history, maskOldObservations(history)));
    expect(masked.filter((e) => e === PRUNED_POINTER)).toHaveLength(20);
    const kept = errors(apply(history, keepRecentToolResults(history, 100_001)));
    expect(kept.filter((e) => e === PRUNED_POINTER)).toHaveLength(27);
    const prunedEdit = apply(history, pruneOldToolOutput(history));
    expect(errors(prunedEdit).filter((e) => e === PRUNED_POINTER)).toHaveLength(14);
    // Cleared responses still read as failures, and nothing is cleared twice.
    expect(results(prunedEdit).filter((r) => r === '')).toHaveLength(30);
    expect(pruneOldToolOutput(prunedEdit).size).toBe(0);
    expect(maskOldObservations(apply(history, maskOldObservations(history))).size).toBe(0);
  });

  it('none never compresses', async () => {
    const strategy = new NoContextManagement();
    expect('optimize' in strategy).toBe(false);
    const result = await strategy.compress({ history: readTurns(2) } as never);
    expect(result.kind).toBe('noop');
  });
});
