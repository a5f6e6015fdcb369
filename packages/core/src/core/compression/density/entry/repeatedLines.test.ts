import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IContent, ToolResponseBlock } from '../../../../services/history/IContent.js';
import {
  readFile,
  replaceInFile,
  toolRoundTrip,
  human,
} from '../../../../test-utils/historyBuilders.js';
import { pruneEverything } from '../test-utils/pruneEverything.js';
import { simulateCompression } from '../test-utils/simulateCompression.js';
import { expandRepeatedLines, namedIn, shownText } from '../test-utils/expandRepeatedLines.js';
import { repeatedLinesReply } from './repeatedLines.js';
import { unchangedReadText } from './unchangedRead.js';

const ws = { workspaceRoot: '/ws' };
/** Lines `from`–`to` of a file; `tag` (a version) shows on every tenth line only. */
const numbered = (from: number, to: number, tag = '') =>
  Array.from(
    { length: to - from + 1 },
    (_, i) => `${from + i}\tconst value${from + i} = ${(from + i) % 10 === 0 ? tag : ''}1;`,
  )
    .join('\n')
    .concat('\n');

function ask(
  history: readonly IContent[],
  [call, result]: readonly [IContent, IContent],
): ToolResponseBlock | undefined {
  const block = call.blocks[0];
  if (block?.type !== 'tool_call') throw new Error('not a call');
  return repeatedLinesReply(history, block, result.blocks[0] as ToolResponseBlock, ws);
}

const shell = (id: string, command: string, output: string, error?: string) =>
  toolRoundTrip(id, 'run_shell_command', { command }, error === undefined ? output : '', error);

describe('repeatedLinesReply (issue 14.2, repeated lines)', () => {
  it('#14.2 a re-run whose output changed in a few lines keeps only those, naming the earlier run for the rest', () => {
    const before = `${numbered(1, 40)}FAILED test_a\n`;
    const after = `${numbered(1, 40)}passed test_a\n`;
    const history = [human('go'), ...shell('t1', 'pytest -q', before)];
    const reply = ask(history, shell('t2', 'pytest -q', after));
    expect(reply?.result).toMatch(/^\[lines 1–40 of call t1's output repeat here unchanged/);
    expect(String(reply?.result).endsWith('passed test_a\n')).toBe(true);
    expect(expandRepeatedLines(String(reply?.result), (ref) => namedIn(history, ref))).toBe(after);
    // Another command's output may be named too (a call that touches no file is never pruned).
    const other = ask(history, shell('t2', 'pytest -q -x', after));
    expect(other?.result).toBe(reply?.result);
  });

  it('#14.2 a failed run is answered in its error, naming an earlier run whether it failed or not', () => {
    const log = numbered(1, 30);
    const history = [human('go'), ...shell('t1', 'make', '', `${log}error: 1`)];
    const reply = ask(history, shell('t2', 'make', '', `${log}error: 2`));
    expect(reply?.error).toMatch(/^\[lines 1–30 of call t1's output/);
    expect(reply?.result).toBe('');
    const ok = [human('go'), ...shell('t1', 'make', log)];
    expect(ask(ok, shell('t2', 'make', '', `${log}error: 2`))?.error).toContain('call t1');
  });

  it('#14.2 a read of a range overlapping an earlier read of the same file names it; never across a write, another file or another read tool', () => {
    const first = shell('s1', "sed -n '1,60p' src/a.ts", numbered(1, 60));
    const overlap = () => shell('s2', "sed -n '31,90p' src/a.ts", numbered(31, 90));
    const reply = ask(first, overlap());
    expect(reply?.result).toMatch(/^\[lines 31–60 of call s1's output/);
    const written = [...first, ...shell('w', 'sed -i s/a/b/ src/a.ts', '')];
    expect(ask(written, overlap())).toBeUndefined();
    const failedWrite = [...first, ...replaceInFile('w', 'src/a.ts', 'no match')];
    expect(ask(failedWrite, overlap())).toBeUndefined();
    const otherFile = shell('s1', "sed -n '1,60p' src/b.ts", numbered(1, 60));
    expect(ask(otherFile, overlap())).toBeUndefined();
    const readTool = readFile('s1', '/ws/src/a.ts', numbered(1, 60));
    expect(ask(readTool, overlap())).toBeUndefined();
    // A command that touches no file never names a file read (READ→WRITE may prune it).
    expect(ask(first, shell('g', 'grep -n value src', numbered(1, 60)))).toBeUndefined();
  });

  it('#14.2 sixth build: any call may name an output density never prunes — of a call that touches no file or writes one, whatever the tool', () => {
    // An edit shows the file's window after it; the next edit's window repeats most of it.
    const edit = (id: string, tag: string) =>
      toolRoundTrip(
        id,
        'edit',
        { file_path: '/ws/a.java', start_line: 10, end_line: 10 },
        `[File: /ws/a.java (60 lines total)]\n${numbered(1, 40, tag)}`,
      );
    const first = edit('e1', 'v1');
    const second = ask(first, edit('e2', 'v2'));
    expect(second?.result).toMatch(/^\[lines 1–10 of call e1's output/);
    // A read of the file right after names the edit's window (READ→WRITE never prunes a write).
    const read = ask(first, shell('r1', "sed -n '1,40p' /ws/a.java", numbered(1, 40, 'v1')));
    expect(read?.result).toMatch(/call e1's output repeat here/);
    // A read tool may name a command's output, and a command another tool's output.
    const log = shell('g1', 'git show HEAD:a.ts', numbered(1, 40));
    expect(ask(log, readFile('r2', '/ws/a.ts', numbered(1, 40)))?.result).toMatch(/call g1's/);
    const otherTool = toolRoundTrip('t1', 'run_tests', {}, numbered(1, 40));
    expect(ask(otherTool, shell('t2', 'pytest', numbered(1, 40)))?.result).toMatch(/call t1's/);
    // Never a read from a call that is not a read of the same file: it may go stale and be pruned.
    const fileRead = readFile('r0', '/ws/a.java', numbered(1, 40));
    expect(ask(fileRead, edit('e3', ''))).toBeUndefined();
    expect(ask(fileRead, shell('t3', 'pytest', numbered(1, 40)))).toBeUndefined();
  });

  it('#14.2 never about a pruned, summarized or replied copy, for recall, or when it saves too little', () => {
    const after = `${numbered(1, 40)}done\n`;
    const copies = [
      '[Result pruned — re-run tool to retrieve]',
      '[run_shell_command pytest — success, 40 lines]',
      unchangedReadText('t0'),
    ];
    for (const copy of copies)
      expect(ask(shell('t1', 'pytest', copy), shell('t2', 'pytest', after))).toBeUndefined();
    const replied = ask(shell('t0', 'pytest', numbered(1, 40)), shell('t1', 'pytest', after))!;
    const onReply = [
      ...toolRoundTrip('t1', 'run_shell_command', { command: 'pytest' }, replied.result),
    ];
    expect(ask(onReply, shell('t2', 'pytest', after))).toBeUndefined();
    const recall = (id: string) => toolRoundTrip(id, 'recall', { id: 'r0123456789' }, after);
    expect(ask(recall('t1'), recall('t2'))).toBeUndefined();
    expect(ask(shell('t1', 'pytest', numbered(1, 5)), shell('t2', 'pytest', numbered(1, 5)))).toBe(
      undefined,
    );
  });

  it("#14.2 a tool that echoes what it was sent (a write showing the content it wrote) names its own call's parameter, CRLF ends included", () => {
    const content = numbered(1, 30);
    const echoed = `Successfully created f.md. Here is the updated code:\n${content.replaceAll('\n', '\r\n')}`;
    const trip = toolRoundTrip('w1', 'write_file', { file_path: '/ws/f.md', content }, echoed);
    const reply = ask([human('go')], trip);
    expect(reply?.result).toBe(
      `Successfully created f.md. Here is the updated code:\n[lines 1–30 of call w1's "content" parameter repeat here unchanged, with CRLF line ends (still above): "1\\tconst value1 = 1;" … "30\\tconst value30 = 1;"]\n`,
    );
    const history = [human('go'), trip[0]];
    expect(expandRepeatedLines(String(reply?.result), (ref) => namedIn(history, ref))).toBe(echoed);
    // An edit showing the new text with context lines around it: the new text is named.
    const newText = numbered(11, 45, 'v2');
    const shown = `Successfully modified f.ts. Here is the updated code:\n...\n${numbered(8, 10)}${newText}${numbered(46, 48)}...\n`;
    const edit = toolRoundTrip(
      'e1',
      'replace',
      { file_path: '/ws/f.ts', old_string: 'x', new_string: newText },
      shown,
    );
    expect(ask([human('go')], edit)?.result).toContain(
      `[lines 1–35 of call e1's "new_string" parameter repeat here unchanged (still above)`,
    );
  });

  it("#14.2 a parameter is named only by its own call's output, never by a later call (an earlier write may be compressed away first)", () => {
    const content = numbered(1, 30);
    const write = toolRoundTrip('w1', 'write_file', { file_path: '/ws/f.ts', content }, 'ok');
    expect(ask(write, readFile('r1', '/ws/f.ts', content))).toBeUndefined();
    expect(ask(write, shell('r1', 'cat f.ts', content))).toBeUndefined();
    // Short parameters are not looked at: nothing under the minimum saving can come of them.
    const small = numbered(1, 3);
    expect(
      ask([], toolRoundTrip('w2', 'write_file', { file_path: '/ws/g.ts', content: small }, small)),
    ).toBeUndefined();
  });

  type Op =
    | { kind: 'read'; file: number; from: number }
    | { kind: 'run'; fails: boolean; from: number }
    | { kind: 'write'; file: number; fails: boolean; shell: boolean; echo: boolean }
    | { kind: 'prune' }
    | { kind: 'compress'; cut: number };

  // Reads weigh most (a read names a read), prunes least (they take stale copies out early).
  const op: fc.Arbitrary<Op> = fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant('read' as const),
        file: fc.integer({ min: 0, max: 1 }),
        from: fc.integer({ min: 1, max: 30 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('run' as const),
        fails: fc.boolean(),
        from: fc.integer({ min: 1, max: 30 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('write' as const),
        file: fc.integer({ min: 0, max: 1 }),
        fails: fc.boolean(),
        shell: fc.boolean(),
        echo: fc.boolean(),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('prune' as const) }) },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('compress' as const),
        cut: fc.integer({ min: 0, max: 30 }),
      }),
    },
  );

  it('#14.2 property: every marker expands, from the history as it is and after pruning everything density would prune, to the output it stands for', () => {
    let replies = 0;
    let echoes = 0;
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        let history: IContent[] = [human('start')];
        const versions = [0, 0];
        let n = 0;
        // Replies given since the last compression, with the output each stands for: while a
        // reply is in the history, pruning never takes away what its markers name.
        let given: { block: ToolResponseBlock; output: string }[] = [];
        const expands = (block: ToolResponseBlock, h: readonly IContent[]) =>
          expandRepeatedLines(shownText(block), (ref) => namedIn(h, ref));
        const checkGiven = () => {
          const pruned = pruneEverything(history);
          for (const { block, output } of given) {
            const kept = pruned.some((e) => e.blocks.includes(block));
            if (kept) expect(expands(block, pruned)).toBe(output);
          }
        };
        for (const step of ops) {
          n++;
          const file = `/ws/f${'file' in step ? step.file : 0}.ts`;
          checkGiven();
          if (step.kind === 'read' || step.kind === 'run') {
            // A read shows 30 lines of the file as it is now; a run prints lines like a read's (so it
            // could name one) and reports on both files.
            const output =
              step.kind === 'read'
                ? numbered(
                    step.from,
                    step.from + 29,
                    versions[step.file] ? `v${versions[step.file]}` : '',
                  )
                : `${numbered(step.from, step.from + 19)}f0 v${versions[0]} f1 v${versions[1]}\n`;
            const command =
              step.kind === 'read' ? `sed -n '${step.from},${step.from + 29}p' ${file}` : 'pytest';
            const error = step.kind === 'run' && step.fails ? output : undefined;
            const trip = shell(`c${n}`, command, output, error);
            const reply = ask(history, trip);
            if (reply !== undefined) {
              replies++;
              expect(expands(reply, history)).toBe(output);
              given.push({ block: reply, output });
            }
            history.push(trip[0], reply === undefined ? trip[1] : { ...trip[1], blocks: [reply] });
          } else if (step.kind === 'write' && step.echo && !step.shell) {
            // A write that echoes the whole file it wrote (CRLF ends when it fails to say so).
            const content = numbered(1, 30, `v${versions[step.file]! + 1}`);
            const shown = `Wrote ${file}:\n${step.fails ? content.replaceAll('\n', '\r\n') : content}`;
            const trip = toolRoundTrip(`c${n}`, 'write_file', { file_path: file, content }, shown);
            const reply = ask(history, trip);
            if (reply !== undefined) {
              echoes++;
              history.push(trip[0]);
              expect(expands(reply, history)).toBe(shown);
              given.push({ block: reply, output: shown });
              history.push({ ...trip[1], blocks: [reply] });
            } else history.push(...trip);
            versions[step.file]! += 1;
          } else if (step.kind === 'write') {
            const error = step.fails ? 'failed' : undefined;
            history.push(
              ...(step.shell
                ? shell(`c${n}`, `sed -i s/a/b/ ${file}`, '', error)
                : replaceInFile(`c${n}`, file, error)),
            );
            if (!step.fails) versions[step.file]! += 1;
          } else if (step.kind === 'prune') {
            history = pruneEverything(history);
          } else {
            // A compression (the oldest entries go, older results become summaries); a reply kept
            // in the tail may then name a summary (a documented limit).
            given = [];
            history = simulateCompression(history, step.cut);
          }
        }
        checkGiven();
      }),
      { numRuns: 1000 },
    );
    expect(replies).toBeGreaterThan(100);
    expect(echoes).toBeGreaterThan(100);
  });
});
