import { describe, expect, it } from 'vitest';
import {
  createAiMessage,
  createToolResponse,
  createUserMessage,
  toolCallBlock,
  type IContent,
} from '../../services/history/IContent.js';
import { recordingPosition } from '../oracle/exposureLedger.js';
import { findReacquisitions } from './findReacquisitions.js';
import { recordedBoundaries, WorkRedoneCounter } from './WorkRedoneCounter.js';

function call(id: string, name: string, parameters: unknown): IContent {
  return createAiMessage([toolCallBlock(id, name, parameters)]);
}

function respond(callId: string, toolName: string, result: string): IContent {
  return createToolResponse({ callId, toolName, result });
}

const read = (id: string, file: string) => call(id, 'read_file', { file_path: file });
const shell = (id: string, command: string) => call(id, 'run_shell_command', { command });
const summary = createUserMessage('summary of earlier work', { isSummary: true });

describe('#25.4 findReacquisitions', () => {
  it('#25.4 the same file read again with no write between', () => {
    const contents = [
      createUserMessage('go'),
      read('a', 'src/x.ts'),
      respond('a', 'read_file', 'one'),
      read('b', 'src/x.ts'),
      respond('b', 'read_file', 'one'),
    ];
    const found = findReacquisitions(contents);
    expect(found.map((r) => [r.callId, r.earlier.map((e) => e.callId)])).toEqual([['b', ['a']]]);
    expect(found[0]?.replyPosition).toBe(recordingPosition(3, 0));
  });

  it('#25.4 a write between makes the next read new content', () => {
    const contents = [
      read('a', 'src/x.ts'),
      respond('a', 'read_file', 'one'),
      call('w', 'write_file', { file_path: 'src/x.ts', content: 'two' }),
      respond('w', 'write_file', 'ok'),
      read('b', 'src/x.ts'),
      respond('b', 'read_file', 'two'),
    ];
    expect(findReacquisitions(contents)).toEqual([]);
  });

  it('#25.4 the same command with the same output; a different output is new', () => {
    const contents = [
      shell('a', 'git status'),
      respond('a', 'run_shell_command', 'clean'),
      shell('b', 'git status'),
      respond('b', 'run_shell_command', 'clean'),
      shell('c', 'git status'),
      respond('c', 'run_shell_command', 'modified: x'),
    ];
    expect(findReacquisitions(contents).map((r) => r.callId)).toEqual(['b']);
  });

  it('#25.4 a failed call acquires nothing', () => {
    const contents = [
      read('a', 'src/x.ts'),
      createToolResponse({ callId: 'a', toolName: 'read_file', result: '', error: 'ENOENT' }),
      read('b', 'src/x.ts'),
      respond('b', 'read_file', 'one'),
    ];
    expect(findReacquisitions(contents)).toEqual([]);
  });
});

describe('#25.4 WorkRedoneCounter', () => {
  /** Read, compaction by the recorded agent, the same read again. */
  const contents = [
    createUserMessage('go'),
    read('a', 'src/x.ts'),
    respond('a', 'read_file', 'one'),
    summary,
    read('b', 'src/x.ts'),
    respond('b', 'read_file', 'one'),
  ];
  const rereadAt = recordingPosition(4, 0);

  function counter(items: readonly IContent[]) {
    return new WorkRedoneCounter(findReacquisitions(items), recordedBoundaries(items));
  }

  it('#25.4 after the agent compacted: kept in context when the policy still sent the copy', () => {
    const work = counter(contents);
    work.onModelCall(contents.slice(0, 4), rereadAt);
    expect(work.totals()).toEqual({ reacquired: 1, redone: 0, keptInContext: 1 });
  });

  it('#25.4 redone when the policy no longer sent the copy', () => {
    const work = counter(contents);
    const sent = [contents[0], contents[1], respond('a', 'read_file', '[pruned]'), summary];
    work.onModelCall(sent as IContent[], rereadAt);
    expect(work.totals()).toEqual({ reacquired: 1, redone: 1, keptInContext: 0 });
  });

  it("#25.4 the policy's own compaction is a boundary too; none between counts nothing", () => {
    const plain = contents.filter((entry) => entry !== summary);
    const at = recordingPosition(3, 0);
    const quiet = counter(plain);
    quiet.onModelCall(plain.slice(0, 3), at);
    expect(quiet.totals().reacquired).toBe(0);

    const compacting = counter(plain);
    compacting.compacted();
    compacting.onModelCall([createUserMessage('summary')], at);
    expect(compacting.totals()).toEqual({ reacquired: 1, redone: 1, keptInContext: 0 });
  });

  it('#25.4 recorded boundaries are summary entries after content', () => {
    expect(recordedBoundaries([summary, createUserMessage('x'), summary])).toEqual([
      recordingPosition(2, 0),
    ]);
  });
});
