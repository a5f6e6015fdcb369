import { describe, expect, it } from 'vitest';
import { PRUNED_POINTER } from '../../densityVocabulary.js';
import { getSettingDefault } from '../../../../settings/settingsRegistry.js';
import {
  readFile,
  replaceInFile,
  toolCall,
  toolResult,
  toolRoundTrip,
} from '../../../../test-utils/historyBuilders.js';
import type { IContent, ToolResponseBlock } from '../../../../services/history/IContent.js';
import { effectiveRetention, pruneByRecency } from './recencyPruning.js';
import { applyDensityResultToArray } from './applyDensityResultToArray.js';
import { optimizeDensity } from './optimizeDensity.js';
import type { DensityConfig } from '../../types.js';
import { deepFreeze } from '../test-utils/deepFreeze.js';

const big = (label: string) => `${label}: ${'x'.repeat(80)}`;
const shell = (id: string) =>
  toolRoundTrip(id, 'run_shell_command', { command: `echo ${id}` }, big(id));
const responses = (history: readonly IContent[]): ToolResponseBlock[] =>
  history.flatMap((e) =>
    e.blocks.filter((b): b is ToolResponseBlock => b.type === 'tool_response'),
  );
const config = (overrides: Partial<DensityConfig> = {}): DensityConfig => ({
  readWritePruning: false,
  fileDedupe: false,
  recencyPruning: true,
  recencyRetention: 3,
  workspaceRoot: '/workspace',
  ...overrides,
});
const run = (history: readonly IContent[], overrides: Partial<DensityConfig> = {}) =>
  applyDensityResultToArray(history, optimizeDensity(deepFreeze(history), config(overrides)));

describe('tool result recency pruning', () => {
  it('REQ-HD-007.1 keeps the newest N results per tool name and points the older ones', () => {
    const history = ['s1', 's2', 's3', 's4', 's5'].flatMap(shell);
    const after = responses(run(history, { recencyRetention: 2 }));
    expect(after.map((r) => r.result)).toEqual([
      PRUNED_POINTER,
      PRUNED_POINTER,
      PRUNED_POINTER,
      big('s4'),
      big('s5'),
    ]);
  });

  it('REQ-HD-007.1 counts each tool name separately', () => {
    const history = [
      ...shell('s1'),
      ...toolRoundTrip('g1', 'grep', { pattern: 'a' }, big('g1')),
      ...shell('s2'),
      ...toolRoundTrip('g2', 'grep', { pattern: 'b' }, big('g2')),
    ];
    const result = optimizeDensity(history, config({ recencyRetention: 1 }));
    expect(result.metadata.recency).toBe(2);
    const after = responses(applyDensityResultToArray(history, result));
    expect(after.map((r) => r.result)).toEqual([
      PRUNED_POINTER,
      PRUNED_POINTER,
      big('s2'),
      big('g2'),
    ]);
  });

  it('REQ-HD-007.1 counts parallel responses in one entry newest-last', () => {
    const history = [
      toolCall([
        { id: 'a', name: 'run_shell_command', parameters: { command: 'a' } },
        { id: 'b', name: 'run_shell_command', parameters: { command: 'b' } },
      ]),
      toolResult([
        { id: 'a', name: 'run_shell_command', result: big('a') },
        { id: 'b', name: 'run_shell_command', result: big('b') },
      ]),
    ];
    expect(responses(run(history, { recencyRetention: 1 })).map((r) => r.result)).toEqual([
      PRUNED_POINTER,
      big('b'),
    ]);
  });

  it('REQ-HD-007.2 uses the exact pointer string', () => {
    expect(PRUNED_POINTER).toBe('[Result pruned — re-run tool to retrieve]');
  });

  it('REQ-HD-007.3 replaces only the payload: ids, tool name, error and other fields stay', () => {
    const history: IContent[] = [
      toolCall({ id: 'old', name: 'run_shell_command', parameters: { command: 'x' } }),
      {
        speaker: 'tool',
        blocks: [
          {
            type: 'tool_response',
            callId: 'old',
            toolName: 'run_shell_command',
            result: big('o'),
            error: 'exit 1',
            isComplete: true,
          },
        ],
        metadata: { timestamp: 9 },
      },
      ...shell('new'),
    ];
    const result = optimizeDensity(history, config({ recencyRetention: 1 }));
    expect(result.removals).toEqual([]);
    expect([...result.replacements.keys()]).toEqual([1]);
    expect(result.replacements.get(1)).toEqual({
      speaker: 'tool',
      blocks: [
        {
          type: 'tool_response',
          callId: 'old',
          toolName: 'run_shell_command',
          result: PRUNED_POINTER,
          error: 'exit 1',
          isComplete: true,
        },
      ],
      metadata: { timestamp: 9 },
    });
  });

  it('REQ-HD-007.4 the retention default is 3', () => {
    expect(getSettingDefault('compression.density.recencyRetention')).toBe(3);
    const history = ['s1', 's2', 's3', 's4'].flatMap(shell);
    const result = pruneByRecency(history, {
      recencyRetention: getSettingDefault('compression.density.recencyRetention') ?? 0,
    });
    expect(result.pruned).toBe(1);
  });

  it('REQ-HD-007.5 recency pruning is off by default', () => {
    expect(getSettingDefault('compression.density.recencyPruning')).toBe(false);
  });

  it('REQ-HD-007.6 does nothing when the recency pass is off', () => {
    const history = ['s1', 's2', 's3', 's4', 's5'].flatMap(shell);
    const result = optimizeDensity(
      history,
      config({
        readWritePruning: false,
        fileDedupe: false,
        recencyPruning: false,
        recencyRetention: 1,
      }),
    );
    expect(result.replacements.size).toBe(0);
    expect(result.metadata.recency).toBe(0);
  });

  it.each([
    [0, 1],
    [-5, 1],
    [0.5, 1],
    [2.7, 2],
    [Number.NaN, 3],
    [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY],
  ])('REQ-HD-013.6 retention %d is treated as %d', (given, used) => {
    expect(effectiveRetention(given)).toBe(used);
  });

  it('REQ-HD-013.6 a retention below 1 still keeps the newest result per tool', () => {
    const history = ['s1', 's2', 's3'].flatMap(shell);
    const after = responses(run(history, { recencyRetention: 0 }));
    expect(after.map((r) => r.result)).toEqual([PRUNED_POINTER, PRUNED_POINTER, big('s3')]);
  });

  it('prior-art A3: recency never resurrects blocks READ→WRITE removed', () => {
    const history = [
      ...readFile('r1', 'a.ts', big('stale')),
      ...replaceInFile('w1', 'a.ts'),
      ...readFile('r2', 'a.ts', big('v2')),
      ...readFile('r3', 'b.ts', big('b')),
    ];
    const result = optimizeDensity(
      history,
      config({
        readWritePruning: true,
        fileDedupe: false,
        recencyPruning: true,
        recencyRetention: 1,
      }),
    );
    expect([...result.removals]).toEqual([0, 1]);
    for (const index of result.removals) expect(result.replacements.has(index)).toBe(false);
    const after = applyDensityResultToArray(history, result);
    expect(
      after.flatMap((e) => e.blocks.map((b) => (b.type === 'tool_call' ? b.id : ''))),
    ).not.toContain('r1');
    // r1 was removed, so it does not count: r2 is the second newest read_file and is pointed.
    expect(responses(after).map((r) => [r.callId, r.result])).toEqual([
      ['w1', 'Successfully modified file.'],
      ['r2', PRUNED_POINTER],
      ['r3', big('b')],
    ]);
  });

  it('prior-art A3: recency edits the entry READ→WRITE already replaced, keeping both edits', () => {
    const history = [
      toolCall([
        { id: 'r1', name: 'read_file', parameters: { file_path: 'a.ts' } },
        { id: 's1', name: 'run_shell_command', parameters: { command: 'ls' } },
      ]),
      toolResult([
        { id: 'r1', name: 'read_file', result: big('a') },
        { id: 's1', name: 'run_shell_command', result: big('ls') },
      ]),
      ...replaceInFile('w', 'a.ts'),
      ...shell('s2'),
    ];
    const result = optimizeDensity(
      history,
      config({
        readWritePruning: true,
        fileDedupe: false,
        recencyPruning: true,
        recencyRetention: 1,
      }),
    );
    expect(result.metadata).toEqual({
      readWrite: 1,
      dedup: 0,
      recency: 1,
    });
    expect(result.replacements.get(1)?.blocks).toEqual([
      {
        type: 'tool_response',
        callId: 's1',
        toolName: 'run_shell_command',
        result: PRUNED_POINTER,
      },
    ]);
  });

  it('prior-art A4: results already pointed are not counted, so a second run changes nothing', () => {
    const history = ['s1', 's2', 's3', 's4', 's5'].flatMap(shell);
    const once = run(history, { recencyRetention: 2 });
    const again = optimizeDensity(once, config({ recencyRetention: 2 }));
    expect(again.replacements.size).toBe(0);
    expect(again.metadata.recency).toBe(0);
  });

  it('prior-art A4: a result already pointed does not use up a place in the retention', () => {
    const history = [
      ...shell('s1'),
      ...toolRoundTrip('s2', 'run_shell_command', { command: 'echo s2' }, PRUNED_POINTER),
    ];
    const result = pruneByRecency(deepFreeze(history), { recencyRetention: 1 });
    expect(result.pruned).toBe(0);
    expect(result.replacements.size).toBe(0);
  });

  it('counts results no longer than the pointer but leaves them (nothing to gain)', () => {
    const history = [
      ...toolRoundTrip('a', 'replace', { file_path: 'x' }, 'ok'),
      ...toolRoundTrip('b', 'replace', { file_path: 'y' }, big('b')),
      ...toolRoundTrip('c', 'replace', { file_path: 'z' }, 'ok'),
    ];
    const result = optimizeDensity(history, config({ recencyRetention: 1 }));
    expect(result.metadata.recency).toBe(1);
    expect(responses(applyDensityResultToArray(history, result)).map((r) => r.result)).toEqual([
      'ok',
      PRUNED_POINTER,
      'ok',
    ]);
  });
  it("#12.7 keeps compress()'s one-line summaries instead of replacing them with the pointer", () => {
    const summary =
      '[run_shell_command echo s1 — success, 1 line of output, "s1: xxxxxxxxxxxxxxxx"]';
    const history = [
      ...toolRoundTrip('s1', 'run_shell_command', { command: 'echo s1' }, summary),
      ...shell('s2'),
      ...shell('s3'),
    ];
    const after = responses(run(history, { recencyRetention: 1 }));
    expect(after.map((r) => r.result)).toEqual([summary, PRUNED_POINTER, big('s3')]);
  });
});
