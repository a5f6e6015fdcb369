import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type {
  IContent,
  TextBlock,
  ToolCallBlock,
  ToolResponseBlock,
} from '../../../../services/history/IContent.js';
import {
  ai,
  human,
  readFile,
  replaceInFile,
  toolRoundTrip,
} from '../../../../test-utils/historyBuilders.js';
import { formatFileInclusion, findFileInclusions } from '../../densityVocabulary.js';
import { inclusionBody } from '../../fileInclusionFormat.js';
import { INCLUDED_REPLY, unchangedReadReply } from './unchangedRead.js';
import { pruneEverything } from '../test-utils/pruneEverything.js';
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
    | { kind: 'read'; file: number }
    | { kind: 'write'; file: number; fails: boolean; same: boolean }
    | { kind: 'edit'; file: number; back: boolean }
    | { kind: 'prune' }
    | { kind: 'compress'; cut: number };

  const file = fc.integer({ min: 0, max: 2 });
  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({ kind: fc.constant('include' as const), file }),
    fc.record({ kind: fc.constant('read' as const), file }),
    fc.record({
      kind: fc.constant('write' as const),
      file,
      fails: fc.boolean(),
      // A successful write that leaves the content as it was: the earlier copy is still stale.
      same: fc.boolean(),
    }),
    // The user changes the file in an editor (no call records it); `back` undoes the last change.
    fc.record({ kind: fc.constant('edit' as const), file, back: fc.boolean() }),
    fc.record({ kind: fc.constant('prune' as const) }),
    fc.record({ kind: fc.constant('compress' as const), cut: fc.integer({ min: 0, max: 20 }) }),
  );

  const bodyOf = (version: number) => `version ${version}\n${CONTENT}`;

  /** The body of the latest inclusion of `name` in the human entries of `entries`, if any. */
  function latestCopy(entries: readonly IContent[], name: string): string | undefined {
    let body: string | undefined;
    for (const entry of entries) {
      if (entry.speaker !== 'human') continue;
      const text = textOf(entry) ?? '';
      for (const span of findFileInclusions(text)) {
        if (span.filePath === name) body = inclusionBody(text, span).replace(/\n$/, '');
      }
    }
    return body;
  }

  /**
   * The note and inclusion-reply keys in `entries` whose named copy is not there: the latest
   * inclusion of its file above it does not hold the content it stood for.
   */
  function missingReferents(entries: readonly IContent[], stoodFor: Map<string, string>) {
    const missing: string[] = [];
    const check = (key: string, name: string, at: number, expected: string | undefined) => {
      if (expected !== undefined && latestCopy(entries.slice(0, at), name) !== expected)
        missing.push(key);
    };
    entries.forEach((entry, i) => {
      for (const block of entry.blocks) {
        if (block.type === 'text' && entry.speaker === 'human') {
          const tag = /^see (\d+)\n/.exec(block.text)?.[1];
          for (const n of [0, 1, 2]) {
            if (!block.text.includes(unchangedInclusionNote(`f${n}.ts`))) continue;
            check(`${tag}:${n}`, `f${n}.ts`, i, stoodFor.get(`${tag}:${n}`));
          }
        }
        if (block.type === 'tool_response' && block.result === INCLUDED_REPLY) {
          const [name = '', content] = (stoodFor.get(block.callId) ?? '').split('|');
          check(block.callId, name, i, content);
        }
      }
    });
    return missing;
  }

  it('#14.2 #22.3 property: a note or inclusion reply names an identical copy in context, which stays while the note does (writes, external edits, pruning, compression)', () => {
    let notes = 0;
    let replies = 0;
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        let history: IContent[] = [human('start')];
        const versions = [0, 0, 0];
        const previous = [0, 0, 0];
        let nextVersion = 1;
        const stoodFor = new Map<string, string>();
        ops.forEach((step, n) => {
          if (step.kind === 'include') {
            const name = `f${step.file}.ts`;
            const span = formatFileInclusion(name, bodyOf(versions[step.file]!));
            const message = human(`see ${n}\n${span}`);
            const revised = unchangedInclusionMessage(history, message, ws);
            if (revised !== undefined) {
              notes++;
              stoodFor.set(`${n}:${step.file}`, bodyOf(versions[step.file]!));
            }
            history.push(revised ?? message, ai('ok'));
          } else if (step.kind === 'read') {
            const name = `f${step.file}.ts`;
            const [call, result] = readFile(`r${n}`, name, bodyOf(versions[step.file]!));
            const response = result.blocks[0] as ToolResponseBlock;
            const reply = unchangedReadReply(
              history,
              call.blocks[0] as ToolCallBlock,
              response,
              ws,
            );
            if (reply?.result === INCLUDED_REPLY) {
              replies++;
              stoodFor.set(`r${n}`, `${name}|${bodyOf(versions[step.file]!)}`);
            }
            history.push(call, reply ? { ...result, blocks: [reply] } : result);
          } else if (step.kind === 'write') {
            history.push(
              ...replaceInFile(`w${n}`, `f${step.file}.ts`, step.fails ? 'failed' : undefined),
            );
            if (!step.fails && !step.same) versions[step.file] = nextVersion++;
          } else if (step.kind === 'edit') {
            const now = versions[step.file]!;
            versions[step.file] = step.back ? previous[step.file]! : nextVersion++;
            previous[step.file] = now;
          } else if (step.kind === 'prune') {
            history = pruneEverything(history);
          } else {
            // A compression: the oldest entries go. A reply whose copy it drops is the
            // compression's to rewrite, not density's: it is no longer checked here.
            history = history.slice(Math.min(step.cut, history.length - 1));
            for (const key of missingReferents(history, stoodFor)) stoodFor.delete(key);
          }
          expect(missingReferents(history, stoodFor)).toEqual([]);
          expect(missingReferents(pruneEverything(history), stoodFor)).toEqual([]);
        });
      }),
      { numRuns: 1000 },
    );
    expect(notes).toBeGreaterThan(0);
    expect(replies).toBeGreaterThan(0);
  });

  it('#22.3 included, included again unchanged (a note), changed in an editor, included again: the note goes with the copy it named', () => {
    const history = [include('a.ts'), ai('ok')];
    const again = unchangedInclusionMessage(history, include('a.ts'), ws)!;
    history.push(again, ai('ok'), include('a.ts', `${CONTENT}\nedited`), ai('ok'));
    const after = pruneEverything(history);
    expect(textOf(after[0])).not.toContain(formatFileInclusion('a.ts', CONTENT));
    expect(textOf(after[2])).not.toContain(unchangedInclusionNote('a.ts'));
    expect(textOf(after[2])).toMatch(
      /Earlier copy of a\.ts removed: a newer copy is included later/,
    );
    expect(textOf(after[2])).toContain('recall id r');
  });

  it('#22.3 included, changed in an editor and included, changed back and included: no note naming the older copy', () => {
    const history = [include('a.ts'), ai('ok'), include('a.ts', `${CONTENT}\nedited`), ai('ok')];
    expect(unchangedInclusionMessage(history, include('a.ts'), ws)).toBeUndefined();
    const [call, result] = readFile('r1', 'a.ts', CONTENT);
    const response = result.blocks[0] as ToolResponseBlock;
    expect(
      unchangedReadReply(history, call.blocks[0] as ToolCallBlock, response, ws),
    ).toBeUndefined();
  });

  it('#22.3 a read answered "unchanged since its inclusion", then the file changed in an editor and included again: the reply goes with the copy', () => {
    const history: IContent[] = [include('a.ts'), ai('ok')];
    const [call, result] = readFile('r1', 'a.ts', CONTENT);
    const response = result.blocks[0] as ToolResponseBlock;
    const reply = unchangedReadReply(history, call.blocks[0] as ToolCallBlock, response, ws);
    expect(reply?.result).toBe(INCLUDED_REPLY);
    history.push(call, { ...result, blocks: [reply!] }, include('a.ts', `${CONTENT}\nedited`));
    const after = pruneEverything(history);
    const answered = after[3]!.blocks[0] as ToolResponseBlock;
    expect(answered.result).not.toBe(INCLUDED_REPLY);
    expect(answered.result).toMatch(
      /Earlier copy of a\.ts removed: a newer copy is included later/,
    );
  });
});
