/**
 * A working-budget compaction's summary in a CLI session names ids no history entry holds (its
 * removed messages as one transcript): the session puts them in the recall archive, so the model's
 * `recall` tool and `dense recall` in the session's shell both give them back.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getDensePaths, RecallArchive, type GenerateRequest } from '@dense/core';
import type { ScriptedReply } from '@dense/core/test-utils';
import { makeTestDirs, makeTestSession, type TestDirs } from '../test-utils/cliTestSession.js';

const FILES = 14;
const MESSAGES_ID = /dense recall (r[0-9a-f]{10}) --grep/;

let dirs: TestDirs;

beforeEach(async () => {
  dirs = await makeTestDirs();
  for (let i = 0; i < FILES; i++) {
    const lines = Array.from({ length: 120 }, (_, n) => `file${i} line ${n}: marker-${i}-${n}`);
    await writeFile(path.join(dirs.workspace, `f${i}.txt`), lines.join('\n') + '\n');
  }
});

afterEach(async () => {
  await dirs.cleanup();
});

const text = (request: GenerateRequest) => JSON.stringify(request.contents);

describe('recall of a working-budget summary in a CLI session', () => {
  it('#35.1 the summary’s transcript id resolves through the recall tool and the archive `dense recall` reads', async () => {
    let next = 0;
    let messagesId: string | undefined;
    let recalled: string | undefined;
    const step: ScriptedReply = (request) => {
      const body = text(request);
      if (messagesId !== undefined) {
        recalled = body;
        return { text: 'Recalled.' };
      }
      const named = MESSAGES_ID.exec(body)?.[1];
      if (named !== undefined) {
        messagesId = named;
        return { toolCalls: [{ id: 'rc', name: 'recall', parameters: { id: named } }] };
      }
      const file = `f${next++}.txt`;
      return next > FILES
        ? { text: 'no compaction seen' }
        : { toolCalls: [{ id: `r${next}`, name: 'read_file', parameters: { file_path: file } }] };
    };
    const { cli } = await makeTestSession({
      dirs,
      interactive: false,
      config: {
        yolo: true,
        settings: [
          { key: 'compression.strategy', raw: 'high-density' },
          { key: 'compression.density.workingBudget', raw: '6000' },
          { key: 'context-limit', raw: '10000' },
        ],
      },
      replies: Array.from({ length: FILES + 3 }, () => step),
    });
    await cli.session.sendMessage('read every file, one at a time');
    await cli.settled();
    cli.dispose();
    expect(messagesId).toBeDefined();
    // The tool's answer: the removed messages' transcript, with the first file's read in it.
    expect(recalled).toContain('marker-0-119');
    const archive = new RecallArchive({ dir: getDensePaths(dirs.env).recallDir });
    const stored = await archive.lookup(messagesId ?? '');
    expect(stored.kind).toBe('found');
    if (stored.kind === 'found') expect(stored.bytes.toString('utf8')).toContain('marker-0-119');
  });
});
