import { describe, expect, it } from 'vitest';
import { ai, human, readFile } from '../test-utils/historyBuilders.js';
import { HistoryService } from '../services/history/HistoryService.js';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import { importedSession } from '../test-utils/importedSession.js';
import { recordingPosition } from './oracle/exposureLedger.js';
import { prepareReplay } from './prepareReplay.js';
import { ReplayRecorder } from './ReplayRecorder.js';

const CHARS: TokenCounter = { countText: (text) => text.length };

/** Three reads, each file defining its own function; the agent then names the first one. */
const READS_THEN_USE = [
  human('read all'),
  ...Array.from({ length: 3 }, (_, i) =>
    readFile(`r${i}`, `f${i}.ts`, `export function loadShard${i}Index() {}\n`),
  ).flat(),
  ai('The entry point is loadShard0Index in f0.ts.'),
];
const USE = recordingPosition(READS_THEN_USE.length - 1, 0);
const TRANSCRIPT_ID = 'r00000000aa';
/** A summary that names only the id of its removed messages' transcript. */
const SUMMARY = human(
  `[Dense compacted the 7 earliest messages. Run \`dense recall ${TRANSCRIPT_ID} --grep PATTERN\` to find a detail in them.]`,
);

async function groundingAfter(archived: boolean) {
  const prepared = await prepareReplay(importedSession(READS_THEN_USE), { tokenCounter: CHARS });
  const recorder = new ReplayRecorder({
    prepared,
    history: new HistoryService(),
    now: () => 0,
    tokenCounter: CHARS,
  });
  recorder.onCompressed({
    strategy: 'high-density',
    result: {
      kind: 'applied',
      newHistory: [SUMMARY],
      metadata: {
        originalMessageCount: 7,
        compressedMessageCount: 1,
        strategyUsed: 'high-density',
        llmCallMade: false,
        ...(archived
          ? { recall: [{ id: TRANSCRIPT_ID, text: JSON.stringify(READS_THEN_USE.slice(0, 7)) }] }
          : {}),
      },
    },
    tokensBefore: 0,
    tokensAfter: 0,
    promptId: 'p',
    at: 0,
  });
  await recorder.modelCall({ contents: [SUMMARY] }, { position: USE });
  const facts = {
    turns: 1,
    toolCalls: 3,
    syntheticResponses: 0,
    overflowCalls: 0,
    finalContextTokens: 0,
  };
  const identity = {
    file: 'f',
    format: 'dense-session',
    sessionIndex: 0,
    strategy: 'high-density',
    contextLimit: 1_000,
    summarizer: null,
  } as const;
  return recorder.report(identity, facts).grounding;
}

describe('ReplayRecorder: what a compaction archived', () => {
  it('#35.1 a use only a summary’s transcript id covers is recallable once the compaction archived that transcript', async () => {
    expect(await groundingAfter(false)).toMatchObject({ specifics: 1, recallable: 0, hidden: 1 });
    expect(await groundingAfter(true)).toMatchObject({ specifics: 1, recallable: 1, hidden: 0 });
  });
});
