import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { importedSession } from '../test-utils/importedSession.js';
import { ai, human, readFile as readEntries } from '../test-utils/historyBuilders.js';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import { prepareReplay } from './prepareReplay.js';
import { getReplayPolicy } from './replayPolicies.js';
import { replaySession } from './replaySession.js';

const CHARS: TokenCounter = { countText: (text) => text.length };

/** A session long enough that high-density compacts it at a 2,000-token limit. */
const LONG = [
  human('Read the modules and sum up what they export'),
  ...Array.from({ length: 8 }, (_, i) =>
    readEntries(`c${i}`, `m${i}.ts`, `export const value${i} = ${i};\n`.repeat(20)),
  ).flat(),
  ai('They each export one value.'),
  human('Thanks'),
];

/** What the replay sent, as its sent log holds it, at the given wall-clock time. */
async function sentAt(wallClock: number): Promise<string> {
  vi.setSystemTime(wallClock);
  const dir = await mkdtemp(path.join(os.tmpdir(), 'dense-replay-clock-'));
  try {
    const prepared = await prepareReplay(importedSession(LONG, { workspaceRoot: '/w' }), {
      tokenCounter: CHARS,
    });
    let clock = 0;
    const { report } = await replaySession(prepared, {
      policy: getReplayPolicy('high-density'),
      contextLimit: 2_000,
      tokenCounter: CHARS,
      now: () => (clock += 1),
      sent: { dir, name: 'clock' },
    });
    expect(report.compressions).toBeGreaterThan(0);
    const [file] = await readdir(dir);
    return await readFile(path.join(dir, file as string), 'utf8');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

describe('replaySession clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('#35.3 a session replays to the same text whatever the wall clock says (the history is stamped by the replay clock)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const first = await sentAt(Date.UTC(2026, 11, 3, 12));
    const later = await sentAt(Date.UTC(2027, 5, 1, 8, 30));
    expect(later).toBe(first);
    expect(first).toContain('dense recall r');
  });
});
