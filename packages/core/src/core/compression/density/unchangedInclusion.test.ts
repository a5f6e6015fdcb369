import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IContent, TextBlock } from '../../../services/history/IContent.js';
import { ai, human, replaceInFile, toolRoundTrip } from '../../../test-utils/historyBuilders.js';
import { formatFileInclusion, findFileInclusions } from '../densityVocabulary.js';
import { pruneEverything } from './test-utils/pruneEverything.js';
import { unchangedInclusionMessage, unchangedInclusionNote } from './unchangedInclusion.js';

const ws = { workspaceRoot: '/ws' };
const CONTENT = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
const include = (file: string, content = CONTENT, before = 'Look at') =>
  human(`${before} @${file}\n${formatFileInclusion(file, content)}\nthanks`);
const textOf = (entry: IContent | undefined) => (entry?.blocks[0] as TextBlock | undefined)?.text;

describe('unchangedInclusionMessage (issue 14.2)', () => {
  it('#14.2 an @ inclusion identical to one still in context becomes a note; the rest of the message stays', () => {
    const history = [include('src/a.ts'), ai('ok')];
    const revised = unchangedInclusionMessage(history, include('src/a.ts', CONTENT, 'Again'), ws);
    expect(textOf(revised)).toBe(`Again @src/a.ts\n${unchangedInclusionNote('src/a.ts')}thanks`);
    expect(findFileInclusions(textOf(revised)!)).toEqual([]);
    // The same file under another spelling of its path resolves to the same file, but the
    // inclusion text differs (its marker names the path): only byte-identical copies count.
    expect(unchangedInclusionMessage(history, include('/ws/src/a.ts'), ws)).toBeUndefined();
  });

  it('#14.2 never when the content differs, the copy was cut, or the file was written since (even a failed or shell write)', () => {
    const history = [include('a.ts'), ai('ok')];
    expect(unchangedInclusionMessage(history, include('a.ts', `${CONTENT}!`), ws)).toBeUndefined();
    expect(
      unchangedInclusionMessage([human('[Earlier copy of a.ts removed]')], include('a.ts'), ws),
    ).toBeUndefined();
    const failed = [...history, ...replaceInFile('w', 'a.ts', 'no match')];
    expect(unchangedInclusionMessage(failed, include('a.ts'), ws)).toBeUndefined();
    const shell = [
      ...history,
      ...toolRoundTrip('s', 'run_shell_command', { command: 'sed -i s/a/b/ a.ts' }, ''),
    ];
    expect(unchangedInclusionMessage(shell, include('a.ts'), ws)).toBeUndefined();
    const otherFile = [...history, ...replaceInFile('w', 'b.ts')];
    expect(textOf(unchangedInclusionMessage(otherFile, include('a.ts'), ws))).toContain(
      unchangedInclusionNote('a.ts'),
    );
  });

  it('#14.2 only the repeated copy of a message with several inclusions is replaced', () => {
    const history = [include('a.ts'), ai('ok')];
    const both = human(
      `${formatFileInclusion('a.ts', CONTENT)}\n${formatFileInclusion('b.ts', CONTENT)}`,
    );
    const text = textOf(unchangedInclusionMessage(history, both, ws))!;
    expect(text.startsWith(unchangedInclusionNote('a.ts'))).toBe(true);
    expect(findFileInclusions(text).map((s) => s.filePath)).toEqual(['b.ts']);
    expect(unchangedInclusionMessage(history, ai('not a user message'), ws)).toBeUndefined();
  });

  type Op =
    | { kind: 'include'; file: number }
    | { kind: 'write'; file: number; fails: boolean; same: boolean }
    | { kind: 'prune' }
    | { kind: 'compress'; cut: number };

  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('include' as const), file: fc.integer({ min: 0, max: 2 }) }),
    fc.record({
      kind: fc.constant('write' as const),
      file: fc.integer({ min: 0, max: 2 }),
      fails: fc.boolean(),
      // A successful write that leaves the content as it was: the earlier copy is still stale.
      same: fc.boolean(),
    }),
    fc.record({ kind: fc.constant('prune' as const) }),
    fc.record({ kind: fc.constant('compress' as const), cut: fc.integer({ min: 0, max: 20 }) }),
  );

  it('#14.2 property: the note is only given about an identical copy that is in context, and that pruning keeps', () => {
    let notes = 0;
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        let history: IContent[] = [human('start')];
        const versions = [0, 0, 0];
        ops.forEach((step, n) => {
          if (step.kind === 'include') {
            const file = `f${step.file}.ts`;
            const span = formatFileInclusion(file, `version ${versions[step.file]}\n${CONTENT}`);
            const message = human(`see\n${span}`);
            const revised = unchangedInclusionMessage(history, message, ws);
            if (revised !== undefined) {
              notes++;
              const holds = (h: readonly IContent[]) =>
                h.some((e) => e.speaker === 'human' && (textOf(e) ?? '').includes(span));
              expect(holds(history)).toBe(true);
              const pruned = pruneEverything(history);
              expect(holds(pruned)).toBe(true);
            }
            history.push(revised ?? message, ai('ok'));
          } else if (step.kind === 'write') {
            history.push(
              ...replaceInFile(`w${n}`, `f${step.file}.ts`, step.fails ? 'failed' : undefined),
            );
            if (!step.fails && !step.same) versions[step.file]! += 1;
          } else if (step.kind === 'prune') {
            history = pruneEverything(history);
          } else {
            // A compression: the oldest entries go.
            history = history.slice(Math.min(step.cut, history.length - 1));
          }
        });
      }),
      { numRuns: 1000 },
    );
    expect(notes).toBeGreaterThan(0);
  });
});
