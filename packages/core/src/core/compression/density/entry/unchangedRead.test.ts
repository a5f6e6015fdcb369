import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IContent, ToolResponseBlock } from '../../../../services/history/IContent.js';
import {
  ai,
  readFile,
  replaceInFile,
  toolRoundTrip,
  human,
} from '../../../../test-utils/historyBuilders.js';
import { pruneEverything } from '../test-utils/pruneEverything.js';
import { simulateCompression } from '../test-utils/simulateCompression.js';
import { formatFileInclusion } from '../../densityVocabulary.js';
import {
  INCLUDED_REPLY,
  isUnchangedReadReply,
  sameOutputText,
  unchangedReadReply,
  unchangedReadText,
} from './unchangedRead.js';

const ws = { workspaceRoot: '/ws' };
const CONTENT = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');

function reread(history: readonly IContent[], id: string, file: string, content: string) {
  const [call, result] = readFile(id, file, content);
  const callBlock = call.blocks[0]!;
  const response = result.blocks[0] as ToolResponseBlock;
  if (callBlock.type !== 'tool_call') throw new Error('not a call');
  return unchangedReadReply(history, callBlock, response, ws);
}

describe('unchangedReadReply (issue 14.2)', () => {
  it('#14.2 answers an identical re-read of a copy still in context with the earlier call id', () => {
    const history = [human('go'), ...readFile('r1', 'src/a.ts', CONTENT)];
    const reply = reread(history, 'r2', '/ws/src/a.ts', CONTENT);
    expect(reply?.result).toBe(unchangedReadText('r1'));
    expect(reply?.callId).toBe('r2');
    expect(isUnchangedReadReply(reply?.result)).toBe(true);
  });

  it('#14.2 a shell re-read (same command, same output) is answered too; never across a shell write, a different command or a command that writes', () => {
    const shell = (id: string, command: string, output: string) =>
      toolRoundTrip(id, 'run_shell_command', { command }, output);
    const ask = (history: readonly IContent[], command: string, output: string) => {
      const [call, result] = shell('s2', command, output);
      const block = call.blocks[0];
      if (block?.type !== 'tool_call') throw new Error('not a call');
      return unchangedReadReply(history, block, result.blocks[0] as ToolResponseBlock, ws);
    };
    const read = shell('s1', "sed -n '1,20p' src/a.ts", CONTENT);
    expect(ask(read, "sed -n '1,20p' src/a.ts", CONTENT)?.result).toBe(unchangedReadText('s1'));
    expect(ask(read, "sed -n '1,21p' src/a.ts", CONTENT)).toBeUndefined();
    expect(ask(read, "sed -n '1,20p' src/a.ts", CONTENT + 'x')).toBeUndefined();
    const written = [...read, ...shell('w', 'sed -i s/a/b/ src/a.ts', '')];
    expect(ask(written, "sed -n '1,20p' src/a.ts", CONTENT)).toBeUndefined();
    const appends = shell('s1', 'cat src/a.ts >> src/b.ts', CONTENT);
    expect(ask(appends, 'cat src/a.ts >> src/b.ts', CONTENT)).toBeUndefined();
  });

  it('#14.2 a call that touches no file, repeated with identical output, names the earlier call', () => {
    const call = (id: string, name: string, parameters: object, output: string) =>
      toolRoundTrip(id, name, parameters, output);
    const ask = (
      history: readonly IContent[],
      name: string,
      parameters: object,
      output: string,
    ) => {
      const [c, result] = call('n2', name, parameters, output);
      const block = c.blocks[0];
      if (block?.type !== 'tool_call') throw new Error('not a call');
      return unchangedReadReply(history, block, result.blocks[0] as ToolResponseBlock, ws);
    };
    const run = call('n1', 'run_shell_command', { command: 'python repro.py' }, CONTENT);
    const reply = ask(run, 'run_shell_command', { command: 'python repro.py' }, CONTENT);
    expect(reply?.result).toBe(sameOutputText('n1'));
    expect(isUnchangedReadReply(reply?.result)).toBe(true);
    // Another command with the same output is named too: the output is what the model sees.
    expect(ask(run, 'run_shell_command', { command: 'python repro.py -v' }, CONTENT)?.result).toBe(
      sameOutputText('n1'),
    );
    // `recall` is asked for on purpose: it always answers with the content.
    const recalled = call('n1', 'recall', { id: 'r0123456789' }, CONTENT);
    expect(ask(recalled, 'recall', { id: 'r0123456789' }, CONTENT)).toBeUndefined();
    const search = call('n1', 'grep', { pattern: 'x' }, CONTENT);
    expect(ask(search, 'grep', { pattern: 'x' }, CONTENT)?.result).toBe(sameOutputText('n1'));
    // Never: a different output, another tool, a failed earlier run, an output the reply
    // would not shorten, a command that writes, or a copy that is a file read (prunable).
    expect(ask(run, 'run_shell_command', { command: 'python repro.py' }, `${CONTENT}!`)).toBe(
      undefined,
    );
    expect(ask(search, 'run_shell_command', { command: 'grep x' }, CONTENT)).toBeUndefined();
    const failed = toolRoundTrip('n1', 'run_shell_command', { command: 'make' }, CONTENT, 'exit 2');
    expect(ask(failed, 'run_shell_command', { command: 'make' }, CONTENT)).toBeUndefined();
    const short = call('n1', 'run_shell_command', { command: 'true' }, 'ok');
    expect(ask(short, 'run_shell_command', { command: 'true' }, 'ok')).toBeUndefined();
    const writes = call('n1', 'run_shell_command', { command: 'sed -i s/a/b/ f.ts' }, CONTENT);
    expect(ask(writes, 'run_shell_command', { command: 'sed -i s/a/b/ f.ts' }, CONTENT)).toBe(
      undefined,
    );
    const fileRead = call('n1', 'run_shell_command', { command: 'cat f.ts' }, CONTENT);
    expect(ask(fileRead, 'run_shell_command', { command: 'python repro.py' }, CONTENT)).toBe(
      undefined,
    );
  });

  it('#14.2 never when the copy was pruned, summarized or differs', () => {
    const pruned = [
      ...toolRoundTrip(
        'r1',
        'read_file',
        { file_path: 'a.ts' },
        '[Result pruned — re-run tool to retrieve]',
      ),
    ];
    expect(reread(pruned, 'r2', 'a.ts', CONTENT)).toBeUndefined();
    const summarized = [
      ...toolRoundTrip(
        'r1',
        'read_file',
        { file_path: 'a.ts' },
        '[read_file a.ts — success, 8 lines]',
      ),
    ];
    expect(reread(summarized, 'r2', 'a.ts', CONTENT)).toBeUndefined();
    expect(reread(readFile('r1', 'a.ts', CONTENT), 'r2', 'a.ts', CONTENT + 'x')).toBeUndefined();
    expect(reread(readFile('r1', 'b.ts', CONTENT), 'r2', 'a.ts', CONTENT)).toBeUndefined();
  });

  it('#14.2 a read identical to an @ inclusion of the file still in an earlier message names that inclusion', () => {
    const included = [human(`see\n${formatFileInclusion('src/a.ts', CONTENT)}`), ai('ok')];
    expect(reread(included, 'r2', '/ws/src/a.ts', CONTENT)?.result).toBe(INCLUDED_REPLY);
    expect(isUnchangedReadReply(INCLUDED_REPLY)).toBe(true);
    // Never: other content, another file, a write since (even failed), a cut copy.
    expect(reread(included, 'r2', 'src/a.ts', `${CONTENT}!`)).toBeUndefined();
    expect(reread(included, 'r2', 'src/b.ts', CONTENT)).toBeUndefined();
    const written = [...included, ...replaceInFile('w1', 'src/a.ts', 'no match')];
    expect(reread(written, 'r2', 'src/a.ts', CONTENT)).toBeUndefined();
    const cut = [human('see\n[Earlier copy of src/a.ts removed: a newer copy is included later]')];
    expect(reread(cut, 'r2', 'src/a.ts', CONTENT)).toBeUndefined();
  });

  it('#14.2 never about a copy older than a write of the file, even a failed one', () => {
    const failedWrite = [
      ...readFile('r1', 'a.ts', CONTENT),
      ...replaceInFile('w1', 'a.ts', 'no match'),
    ];
    expect(reread(failedWrite, 'r2', 'a.ts', CONTENT)).toBeUndefined();
    const otherFile = [...readFile('r1', 'a.ts', CONTENT), ...replaceInFile('w1', 'b.ts')];
    expect(reread(otherFile, 'r2', 'a.ts', CONTENT)?.result).toBe(unchangedReadText('r1'));
  });

  it('#14.2 a read_line_range only matches the same range', () => {
    const history = toolRoundTrip(
      'r1',
      'read_line_range',
      { file_path: 'a.ts', start_line: 1, end_line: 8 },
      CONTENT,
    );
    const ask = (start: number) => {
      const [call, result] = toolRoundTrip(
        'r2',
        'read_line_range',
        { file_path: 'a.ts', start_line: start, end_line: 8 },
        CONTENT,
      );
      const c = call.blocks[0]!;
      if (c.type !== 'tool_call') throw new Error('not a call');
      return unchangedReadReply(history, c, result.blocks[0] as ToolResponseBlock, ws);
    };
    expect(ask(1)?.result).toBe(unchangedReadText('r1'));
    expect(ask(2)).toBeUndefined();
  });

  type Op =
    | { kind: 'read'; file: number; shell: boolean }
    | { kind: 'run'; script: number }
    | { kind: 'include'; file: number }
    | { kind: 'write'; file: number; same: boolean; fails: boolean; shell: boolean }
    | { kind: 'prune' }
    | { kind: 'compress'; cut: number };

  const op: fc.Arbitrary<Op> = fc.oneof(
    fc.record({
      kind: fc.constant('read' as const),
      file: fc.integer({ min: 0, max: 2 }),
      shell: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('write' as const),
      file: fc.integer({ min: 0, max: 2 }),
      same: fc.boolean(),
      fails: fc.boolean(),
      shell: fc.boolean(),
    }),
    fc.record({ kind: fc.constant('run' as const), script: fc.integer({ min: 0, max: 1 }) }),
    fc.record({ kind: fc.constant('include' as const), file: fc.integer({ min: 0, max: 2 }) }),
    fc.record({ kind: fc.constant('prune' as const) }),
    fc.record({ kind: fc.constant('compress' as const), cut: fc.integer({ min: 0, max: 30 }) }),
  );

  it('#14.2 property: the reply (read tools, shell reads, repeated outputs) is only given about a copy that is in context, true, and that pruning keeps', () => {
    let replies = 0;
    let includedReplies = 0;
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        let history: IContent[] = [human('start')];
        const versions = [0, 0, 0];
        let n = 0;
        for (const step of ops) {
          n++;
          const file = `/ws/f${'file' in step ? step.file : 0}.ts`;
          if (step.kind === 'read' || step.kind === 'run') {
            // A script prints what the files hold now: its output repeats while nothing changes.
            const content =
              step.kind === 'run'
                ? `script ${step.script} sees ${versions.join('.')}\n${CONTENT}`
                : `${file} version ${versions[step.file]}\n${CONTENT}`;
            const command = step.kind === 'run' ? `python s${step.script}.py` : `cat ${file}`;
            const [call, result] =
              step.kind === 'run' || step.shell
                ? toolRoundTrip(`c${n}`, 'run_shell_command', { command }, content)
                : readFile(`c${n}`, file, content);
            const reply = unchangedReadReply(
              history,
              call.blocks[0] as never,
              result.blocks[0] as ToolResponseBlock,
              ws,
            );
            if (reply !== undefined) {
              replies++;
              if (reply.result === INCLUDED_REPLY) includedReplies++;
              const named = /call (\S+) —/.exec(String(reply.result))?.[1];
              // The reply names a call whose result is the content, or an inclusion of it.
              const included = formatFileInclusion(file, content);
              const holds = (h: readonly IContent[]) =>
                h.some((e) =>
                  e.blocks.some((b) =>
                    reply.result === INCLUDED_REPLY
                      ? b.type === 'text' && e.speaker === 'human' && b.text.includes(included)
                      : b.type === 'tool_response' && b.callId === named && b.result === content,
                  ),
                );
              expect(holds(history)).toBe(true);
              // Pruning everything density would prune still keeps the copy the reply names.
              const pruned = pruneEverything(history);
              expect(holds(pruned)).toBe(true);
            }
            history.push(call, reply === undefined ? result : { ...result, blocks: [reply] });
          } else if (step.kind === 'include') {
            const content = `${file} version ${versions[step.file]}\n${CONTENT}`;
            history.push(human(`see\n${formatFileInclusion(file, content)}`), ai('ok'));
          } else if (step.kind === 'write') {
            const error = step.fails ? 'failed' : undefined;
            history.push(
              ...(step.shell
                ? toolRoundTrip(
                    `c${n}`,
                    'run_shell_command',
                    { command: `sed -i s/a/b/ ${file}` },
                    '',
                    error,
                  )
                : replaceInFile(`c${n}`, file, error)),
            );
            if (!step.fails && !step.same) versions[step.file]! += 1;
          } else if (step.kind === 'prune') {
            history = pruneEverything(history);
          } else {
            // A compression (the oldest entries go, older results become summaries).
            history = simulateCompression(history, step.cut);
          }
        }
      }),
      { numRuns: 1000 },
    );
    expect(replies).toBeGreaterThan(0);
    expect(includedReplies).toBeGreaterThan(0);
  });
});
