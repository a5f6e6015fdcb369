import { describe, expect, it } from 'vitest';
import { READ_TOOLS, WRITE_TOOLS } from '../../densityVocabulary.js';
import {
  ai,
  human,
  readFile,
  replaceInFile,
  toolCall,
  toolResult,
  toolRoundTrip,
} from '../../../../test-utils/historyBuilders.js';
import type { IContent } from '../../../../services/history/IContent.js';
import { textBlock } from '../../../../services/history/IContent.js';
import { pruneReadWritePairs } from './readWritePruning.js';
import { applyDensityResultToArray } from './applyDensityResultToArray.js';
import { optimizeDensity } from './optimizeDensity.js';
import { deepFreeze } from '../test-utils/deepFreeze.js';

const ROOT = '/workspace';
const prune = (history: readonly IContent[]) =>
  pruneReadWritePairs(deepFreeze(history), { workspaceRoot: ROOT });

const callIds = (history: readonly IContent[]): string[] =>
  history.flatMap((e) => e.blocks.flatMap((b) => (b.type === 'tool_call' ? [b.id] : [])));
const responseIds = (history: readonly IContent[]): string[] =>
  history.flatMap((e) => e.blocks.flatMap((b) => (b.type === 'tool_response' ? [b.callId] : [])));

function pruned(history: readonly IContent[]): IContent[] {
  const result = optimizeDensity(deepFreeze(history), {
    readWritePruning: true,
    fileDedupe: false,
    recencyPruning: false,
    recencyRetention: 3,
    workspaceRoot: ROOT,
  });
  return applyDensityResultToArray(history, result);
}

describe('READ→WRITE pair pruning', () => {
  it('REQ-HD-005.1 REQ-HD-005.6 removes a read made stale by a later write, call and response', () => {
    const history = [
      human('edit a'),
      ...readFile('r1', 'src/a.ts', 'old content'),
      ...replaceInFile('w1', 'src/a.ts'),
    ];
    const result = prune(history);
    expect([...result.removals].sort()).toEqual([1, 2]);
    expect(result.replacements.size).toBe(0);
    expect(result.pruned).toBe(1);
    expect(callIds(pruned(history))).toEqual(['w1']);
  });

  it.each(READ_TOOLS.filter((t) => t !== 'read_many_files'))(
    'REQ-HD-005.2 recognises %s as a read tool',
    (tool) => {
      const history = [
        ...toolRoundTrip('r', tool, { file_path: 'a.ts' }, 'x'),
        ...replaceInFile('w', 'a.ts'),
      ];
      expect(prune(history).pruned).toBe(1);
    },
  );

  it('REQ-HD-005.2 recognises read_many_files as a read tool', () => {
    const history = [
      ...toolRoundTrip('r', 'read_many_files', { paths: ['a.ts'] }, 'x'),
      ...replaceInFile('w', 'a.ts'),
    ];
    expect(prune(history).pruned).toBe(1);
  });

  it.each(WRITE_TOOLS)('REQ-HD-005.3 recognises %s as a write tool', (tool) => {
    const history = [
      ...readFile('r', 'a.ts', 'x'),
      ...toolRoundTrip('w', tool, { file_path: 'a.ts' }, 'ok'),
    ];
    expect(prune(history).pruned).toBe(1);
  });

  it('REQ-HD-005.3 does not treat other tools (shell, search) as writes', () => {
    const history = [
      ...readFile('r', 'a.ts', 'x'),
      ...toolRoundTrip('s', 'run_shell_command', { command: 'touch a.ts', path: 'a.ts' }, 'ok'),
      ...toolRoundTrip('g', 'grep', { pattern: 'x', path: 'a.ts' }, 'ok'),
    ];
    expect(prune(history).pruned).toBe(0);
  });

  it.each([
    [{ file_path: 'a.ts' }, true],
    [{ absolute_path: '/workspace/a.ts' }, true],
    [{ path: 'a.ts' }, true],
    [{ file_path: 'a.ts', path: 'b.ts' }, true],
    [{ file_path: 'b.ts', path: 'a.ts' }, false],
    [{ absolute_path: 'b.ts', path: 'a.ts' }, false],
  ])(
    'REQ-HD-005.4 takes the read path from file_path, absolute_path, path in that order: %j',
    (params, stale) => {
      const history = [
        ...toolRoundTrip('r', 'read_file', params, 'x'),
        ...replaceInFile('w', 'a.ts'),
      ];
      expect(prune(history).pruned).toBe(stale ? 1 : 0);
    },
  );

  it('REQ-HD-005.5 matches ./a, a and the absolute path as one file', () => {
    const history = [
      ...readFile('r1', './src/a.ts', 'x'),
      ...readFile('r2', '/workspace/src/a.ts', 'x'),
      ...readFile('r3', 'src/../src/a.ts', 'x'),
      ...replaceInFile('w', 'src/a.ts'),
    ];
    expect(prune(history).pruned).toBe(3);
  });

  it('REQ-HD-005.5 compares resolved paths without case folding', () => {
    const history = [...readFile('r', 'src/A.ts', 'x'), ...replaceInFile('w', 'src/a.ts')];
    expect(prune(history).pruned).toBe(0);
  });

  it('REQ-HD-005.11 resolves relative paths against the workspace root', () => {
    const history = [...readFile('r', 'a.ts', 'x'), ...replaceInFile('w', '/workspace/a.ts')];
    expect(pruneReadWritePairs(history, { workspaceRoot: '/workspace' }).pruned).toBe(1);
    expect(pruneReadWritePairs(history, { workspaceRoot: '/elsewhere' }).pruned).toBe(0);
  });

  it('REQ-HD-005.7 keeps reads after the latest write', () => {
    const history = [
      ...readFile('r1', 'a.ts', 'v1'),
      ...replaceInFile('w1', 'a.ts'),
      ...readFile('r2', 'a.ts', 'v2'),
      ...replaceInFile('w2', 'a.ts'),
      ...readFile('r3', 'a.ts', 'v3'),
    ];
    expect(callIds(pruned(history))).toEqual(['w1', 'w2', 'r3']);
  });

  it('REQ-HD-005.7 keeps a read issued in the same AI entry as the write (order unknown)', () => {
    const history = [
      toolCall([
        { id: 'r', name: 'read_file', parameters: { file_path: 'a.ts' } },
        { id: 'w', name: 'write_file', parameters: { file_path: 'a.ts', content: 'x' } },
      ]),
      toolResult([
        { id: 'r', name: 'read_file', result: 'old' },
        { id: 'w', name: 'write_file', result: 'ok' },
      ]),
    ];
    expect(prune(history).pruned).toBe(0);
  });

  it('REQ-HD-005.8 removes only the stale call block from a multi-call AI entry and only its response', () => {
    const history = [
      toolCall(
        [
          { id: 'r1', name: 'read_file', parameters: { file_path: 'a.ts' } },
          { id: 'r2', name: 'read_file', parameters: { file_path: 'b.ts' } },
        ],
        'Reading both.',
      ),
      toolResult([
        { id: 'r1', name: 'read_file', result: 'A' },
        { id: 'r2', name: 'read_file', result: 'B' },
      ]),
      ...replaceInFile('w', 'a.ts'),
    ];
    const result = prune(history);
    expect(result.removals.size).toBe(0);
    const aiEntry = result.replacements.get(0);
    expect(aiEntry?.blocks).toEqual([
      textBlock('Reading both.'),
      { type: 'tool_call', id: 'r2', name: 'read_file', parameters: { file_path: 'b.ts' } },
    ]);
    expect(responseIds([result.replacements.get(1) as IContent])).toEqual(['r2']);
    expect(result.pruned).toBe(1);
  });

  it('REQ-HD-005.8 keeps the text of an AI entry whose only call is stale, removes an empty one', () => {
    const withText = [
      toolCall({ id: 'r', name: 'read_file', parameters: { file_path: 'a.ts' } }, 'Let me look.'),
      toolResult({ id: 'r', name: 'read_file', result: 'A' }),
      ...replaceInFile('w', 'a.ts'),
    ];
    const kept = prune(withText);
    expect(kept.replacements.get(0)?.blocks).toEqual([textBlock('Let me look.')]);
    expect([...kept.removals]).toEqual([1]);

    const blankText = [
      toolCall({ id: 'r', name: 'read_file', parameters: { file_path: 'a.ts' } }, '  '),
      toolResult({ id: 'r', name: 'read_file', result: 'A' }),
      ...replaceInFile('w', 'a.ts'),
    ];
    expect([...prune(blankText).removals].sort()).toEqual([0, 1]);
  });

  it('REQ-HD-005.8 keeps thinking blocks and entry metadata of a replaced AI entry', () => {
    const call: IContent = {
      speaker: 'ai',
      blocks: [
        { type: 'thinking', thought: 'plan', signature: 'sig' },
        { type: 'tool_call', id: 'r', name: 'read_file', parameters: { file_path: 'a.ts' } },
      ],
      metadata: { model: 'm1', timestamp: 5 },
    };
    const history = [
      call,
      toolResult({ id: 'r', name: 'read_file', result: 'A' }),
      ...replaceInFile('w', 'a.ts'),
    ];
    expect(prune(history).replacements.get(0)).toEqual({
      speaker: 'ai',
      blocks: [{ type: 'thinking', thought: 'plan', signature: 'sig' }],
      metadata: { model: 'm1', timestamp: 5 },
    });
  });

  it('REQ-HD-005.9 removes read_many_files when every concrete path was written later', () => {
    const history = [
      ...toolRoundTrip('m', 'read_many_files', { paths: ['a.ts', 'b.ts'] }, 'both'),
      ...replaceInFile('w1', 'a.ts'),
      ...replaceInFile('w2', 'b.ts'),
    ];
    expect(prune(history).pruned).toBe(1);
  });

  it.each([
    ['one path not written', { paths: ['a.ts', 'c.ts'] }],
    ['a * glob', { paths: ['a.ts', '*.ts'] }],
    ['a ? glob', { paths: ['a.ts', 'b?.ts'] }],
    ['a ** glob', { paths: ['a.ts', 'src/**'] }],
    ['a brace glob', { paths: ['a.ts', '{a,b}.ts'] }],
    ['include patterns', { paths: ['a.ts'], include: ['*.md'] }],
    ['an empty paths array', { paths: [] }],
    ['a non-string path', { paths: ['a.ts', 7] }],
    ['paths not an array', { paths: 'a.ts' }],
  ])('REQ-HD-005.9 keeps read_many_files with %s', (_label, params) => {
    const history = [
      ...toolRoundTrip('m', 'read_many_files', params, 'content'),
      ...replaceInFile('w1', 'a.ts'),
      ...replaceInFile('w2', 'b.ts'),
    ];
    expect(prune(history).pruned).toBe(0);
  });

  it('REQ-HD-013.5 skips malformed parameters without throwing', () => {
    const malformed: unknown[] = [
      null,
      undefined,
      'a.ts',
      42,
      [],
      ['a.ts'],
      {},
      { file_path: 42 },
      { file_path: '' },
    ];
    const history = [
      ...malformed.flatMap((params, i) => toolRoundTrip(`r${i}`, 'read_file', params, 'x')),
      ...malformed.flatMap((params, i) => toolRoundTrip(`w${i}`, 'replace', params, 'ok')),
      ...replaceInFile('w', 'a.ts'),
    ];
    expect(() => prune(history)).not.toThrow();
    expect(prune(history).pruned).toBe(0);
  });

  it('links call and response by id, not adjacency', () => {
    const history = [
      toolCall({ id: 'r', name: 'read_file', parameters: { file_path: 'a.ts' } }),
      ai('Reading…'),
      human('take your time'),
      toolResult({ id: 'r', name: 'read_file', result: 'A' }),
      ...replaceInFile('w', 'a.ts'),
    ];
    expect([...prune(history).removals].sort()).toEqual([0, 3]);
  });

  it('beyond REQ-HD-005.6: a write that failed does not make earlier reads stale', () => {
    const history = [
      ...readFile('r', 'a.ts', 'the only live copy'),
      ...replaceInFile('w', 'a.ts', 'old_string not found'),
    ];
    expect(prune(history).pruned).toBe(0);
  });

  it('beyond REQ-HD-005.6: a write without a response yet does not make earlier reads stale', () => {
    const history = [
      ...readFile('r', 'a.ts', 'x'),
      toolCall({ id: 'w', name: 'replace', parameters: { file_path: 'a.ts' } }),
    ];
    expect(prune(history).pruned).toBe(0);
  });

  it('beyond REQ-HD-005.6: an earlier successful write still counts when the latest one failed', () => {
    const history = [
      ...readFile('r', 'a.ts', 'x'),
      ...replaceInFile('w1', 'a.ts'),
      ...replaceInFile('w2', 'a.ts', 'failed'),
    ];
    expect(prune(history).pruned).toBe(1);
  });

  it('keeps a read call that has no response yet (nothing to remove it with)', () => {
    const history = [
      toolCall({ id: 'r', name: 'read_file', parameters: { file_path: 'a.ts' } }),
      ...replaceInFile('w', 'a.ts'),
    ];
    expect(prune(history).pruned).toBe(0);
  });

  it('keeps a read whose response arrived after the write was issued', () => {
    const history = [
      toolCall({ id: 'r', name: 'read_file', parameters: { file_path: 'a.ts' } }),
      toolCall({ id: 'w', name: 'replace', parameters: { file_path: 'a.ts' } }),
      toolResult({ id: 'r', name: 'read_file', result: 'maybe new' }),
      toolResult({ id: 'w', name: 'replace', result: 'ok' }),
    ];
    expect(prune(history).pruned).toBe(0);
  });

  it('pairs a reused call id with its most recent call', () => {
    const history = [
      ...readFile('same', 'a.ts', 'A'),
      ...replaceInFile('w', 'a.ts'),
      ...readFile('same', 'a.ts', 'A2'),
    ];
    const result = prune(history);
    expect([...result.removals].sort()).toEqual([0, 1]);
  });

  it('removes a read whose response entry also answers other calls only block-wise', () => {
    const history = [
      toolCall({ id: 'r', name: 'read_file', parameters: { file_path: 'a.ts' } }),
      toolCall({ id: 's', name: 'run_shell_command', parameters: { command: 'ls' } }),
      toolResult([
        { id: 'r', name: 'read_file', result: 'A' },
        { id: 's', name: 'run_shell_command', result: 'a.ts' },
      ]),
      ...replaceInFile('w', 'a.ts'),
    ];
    const result = prune(history);
    expect([...result.removals]).toEqual([0]);
    expect(responseIds([result.replacements.get(2) as IContent])).toEqual(['s']);
  });
});
