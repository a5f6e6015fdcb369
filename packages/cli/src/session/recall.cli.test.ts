/**
 * `recall` end to end in a CLI session (issue #11): a read made stale by a write is pruned before
 * the next model call, the pointer names its recall id, the model calls `recall` with it, and the
 * exact original content comes back from the session recording — also after `--resume`.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { GenerateRequest } from '@dense/core';
import { parseSessionRecording } from './loadSessionRecording.js';
import { makeTestDirs, makeTestSession, type TestDirs } from '../test-utils/cliTestSession.js';

const ORIGINAL = Array.from({ length: 30 }, (_, i) => `alpha line ${i}`).join('\n') + '\n';
const POINTER = /recall id (r[0-9a-f]{10}) to see the original/;

let dirs: TestDirs;

beforeEach(async () => {
  dirs = await makeTestDirs();
  await writeFile(path.join(dirs.workspace, 'a.txt'), ORIGINAL);
});

afterEach(async () => {
  await dirs.cleanup();
});

const text = (request: GenerateRequest) => JSON.stringify(request.contents);

/** Calls `recall` with the id the request's pointer names (none: answers so the test fails). */
function recallFromPointer(request: GenerateRequest) {
  const id = POINTER.exec(text(request))?.[1];
  return id === undefined
    ? { text: 'no pointer seen' }
    : { toolCalls: [{ id: 'rc', name: 'recall', parameters: { id } }] };
}

const settings = [{ key: 'compression.strategy' as const, raw: 'high-density' }];

describe('recall in a CLI session (issue #11.1 end to end)', () => {
  it('#11.1 prune, recall, and the original content reaches the model; again after --resume', async () => {
    const seen: string[] = [];
    const { cli } = await makeTestSession({
      dirs,
      interactive: false,
      config: { yolo: true, settings },
      replies: [
        { toolCalls: [{ id: 'r1', name: 'read_file', parameters: { file_path: 'a.txt' } }] },
        {
          toolCalls: [
            { id: 'w1', name: 'write_file', parameters: { file_path: 'a.txt', content: 'beta\n' } },
          ],
        },
        recallFromPointer,
        (request) => {
          seen.push(text(request));
          return { text: 'Recalled.' };
        },
      ],
    });
    await cli.session.sendMessage('read a.txt, then overwrite it');
    const last = seen[0] ?? '';
    expect(last).toMatch(POINTER);
    expect(last).toContain('alpha line 29');
    const recallResult = cli.session.history
      .getRawHistory()
      .flatMap((e) => e.blocks)
      .find((b) => b.type === 'tool_response' && b.callId === 'rc');
    // The history now holds the pointer; the recording holds the original read result.
    const recording = parseSessionRecording(
      await readFile(cli.recorder.path, 'utf8'),
      cli.recorder.path,
    );
    const original = recording.contents
      .flatMap((e) => e.blocks)
      .find((b) => b.type === 'tool_response' && b.callId === 'r1');
    expect(original?.type === 'tool_response' && original.result).toContain('alpha line 29');
    expect(recallResult?.type === 'tool_response' && recallResult.result).toBe(
      original?.type === 'tool_response' ? original.result : 'missing',
    );
    cli.dispose();

    const resumedSeen: string[] = [];
    const resumed = await makeTestSession({
      dirs,
      interactive: false,
      config: { yolo: true, settings, resume: 'latest' },
      replies: [
        recallFromPointer,
        (request) => {
          resumedSeen.push(text(request));
          return { text: 'Recalled again.' };
        },
      ],
    });
    await resumed.cli.session.sendMessage('show me the old a.txt again');
    const history = resumed.cli.session.history.getRawHistory();
    const second = history
      .flatMap((e) => e.blocks)
      .filter((b) => b.type === 'tool_response' && b.callId === 'rc')
      .at(-1);
    expect(second?.type === 'tool_response' && second.error).toBeFalsy();
    expect(second?.type === 'tool_response' && String(second.result)).toContain('alpha line 0');
    expect(resumedSeen[0]).toContain('alpha line 29');
    resumed.cli.dispose();
  });
});
