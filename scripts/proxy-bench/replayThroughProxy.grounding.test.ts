import { describe, expect, it } from 'vitest';
import type { ImportedSession } from '@dense/core';
import { recallIdOfResponse } from '../../packages/core/src/core/compression/recallPointers.js';
import { replayThroughProxy } from './replayThroughProxy.js';
import { readOutput, readSession } from './test-utils/readSession.js';

/** Synthetic specifics only the first output shows. */
const SECRET_NAME = 'ledgerChecksumWidth';
const SECRET_NUMBER = '48213';

/**
 * The first output mentions the specifics once, after 600 names and numbers it mentions twice: more than a
 * compaction summary keeps of one output, so they are condensed away (recallable only).
 */
function secretBody(): string {
  const names = Array.from(
    { length: 600 },
    (_, k) => `  use(fillerName${k}, fillerName${k}, ${20_000 + k}, ${20_000 + k});\n`,
  );
  return `${names.join('')}  use(${SECRET_NAME}, ${SECRET_NUMBER});\n`;
}

/**
 * A task, `rounds` reads of distinct files a minute apart (tokens counted as characters, so the
 * history passes Claude Code's 167,000 after the ninth of 20,000), then a reply that uses what the
 * first read showed.
 */
function session(rounds: number, chars: number): ImportedSession {
  return readSession({
    rounds,
    chars,
    task: 'go',
    head: (i) => (i === 0 ? secretBody() : ''),
    closing: `Set ${SECRET_NAME} to ${SECRET_NUMBER} everywhere.`,
  });
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
    expect(proxy.recallIds).toEqual([recallIdOfResponse(readOutput('m0', 20_000, secretBody()))]);
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
