import { describe, expect, it } from 'vitest';
import type { IContent, ImportedSession, ToolResponseBlock } from '@dense/core';
import { recallIdOfResponse } from '../../packages/core/src/core/compression/recallPointers.js';
import { replayThroughProxy } from './replayThroughProxy.js';

const T0 = Date.UTC(2026, 0, 1);
/** Synthetic specifics only the first output shows. */
const SECRET_NAME = 'ledgerChecksumWidth';
const SECRET_NUMBER = '48213';

const read = (id: string, at: number): IContent => ({
  speaker: 'ai',
  blocks: [{ type: 'tool_call', id, name: 'read_file', parameters: { file_path: `/w/${id}.ts` } }],
  metadata: { timestamp: T0 + at },
});

/**
 * The first output mentions the specifics once, after 200 names it mentions twice: more than a
 * compaction summary keeps of one output, so they are condensed away (recallable only).
 */
function secretBody(): string {
  const names = Array.from({ length: 200 }, (_, k) => `  use(fillerName${k}, fillerName${k});\n`);
  return `${names.join('')}  use(${SECRET_NAME}, ${SECRET_NUMBER});\n`;
}

function output(id: string, chars: number): ToolResponseBlock {
  const head = id === 'm0' ? secretBody() : '';
  return {
    type: 'tool_response',
    callId: id,
    toolName: 'read_file',
    result: head + `export const ${id} = 1;\n`.repeat(Math.ceil(chars / 22)).slice(0, chars),
  };
}

/**
 * A task, `rounds` reads of distinct files a minute apart (tokens counted as characters, so the
 * history passes Claude Code's 167,000 after the ninth of 20,000), then a reply that uses what the
 * first read showed.
 */
function session(rounds: number, chars: number): ImportedSession {
  const contents: IContent[] = [{ speaker: 'human', blocks: [{ type: 'text', text: 'go' }] }];
  for (let i = 0; i < rounds; i++) {
    contents.push(read(`m${i}`, i * 60_000), { speaker: 'tool', blocks: [output(`m${i}`, chars)] });
  }
  contents.push({
    speaker: 'ai',
    blocks: [{ type: 'text', text: `Set ${SECRET_NAME} to ${SECRET_NUMBER} everywhere.` }],
    metadata: { timestamp: T0 + rounds * 60_000 },
  });
  return {
    file: 's.jsonl',
    format: 'claude-code',
    sessionIndex: 0,
    model: 'claude-sonnet-4-6',
    contents,
    skipped: [],
    ignored: {},
  } as Omit<ImportedSession, 'stats'> as ImportedSession;
}

describe('bench:proxy grounding', () => {
  it("#24.5 an output the proxy condensed is recallable by its id; the client's own compaction hid it", async () => {
    const replay = await replayThroughProxy({
      session: session(12, 20_000),
      api: 'anthropic',
      prefix: { systemTokens: 1_000, toolTokens: 1_000 },
      count: (text) => text.length,
      sessionId: 'synthetic-grounding',
    });
    expect(replay.compactions.passThrough.synthetic).toBeGreaterThanOrEqual(1);
    expect(replay.records.some((record) => record.compaction?.kind === 'compacted')).toBe(true);

    const { passThrough, proxy } = replay.grounding;
    expect(passThrough).toMatchObject({ specifics: 2, visible: 0, recallable: 0, hidden: 2 });
    expect(passThrough.recallCallsNeeded).toBe(0);
    expect(proxy).toMatchObject({ specifics: 2, visible: 0, recallable: 2, hidden: 0 });
    expect(proxy.recallIds).toEqual([recallIdOfResponse(output('m0', 20_000))]);
    expect(proxy.recallCallsNeeded).toBe(1);
  });

  it('#24.5 an output both sides still send is visible on both', async () => {
    const replay = await replayThroughProxy({
      session: session(2, 2_000),
      api: 'anthropic',
      prefix: { systemTokens: 1_000, toolTokens: 1_000 },
      count: (text) => text.length,
      sessionId: 'synthetic-grounding-short',
    });
    const { passThrough, proxy } = replay.grounding;
    expect(passThrough).toMatchObject({ specifics: 2, visible: 2, hidden: 0 });
    expect(proxy).toMatchObject({ specifics: 2, visible: 2, recallable: 0, hidden: 0 });
  });
});
