/** The `recorded` baseline: the agent's own compactions replayed as they happened. */
import { describe, expect, it } from 'vitest';
import { ai, human, readFile } from '../test-utils/historyBuilders.js';
import { contentTokenText, type TokenCounter } from '../services/history/TokenCounter.js';
import type { IContent } from '../services/history/IContent.js';
import type { ImportedSession } from '../transcripts/types.js';
import { prepareReplay } from './prepareReplay.js';
import { getReplayPolicy, type ReplayPolicyId } from './replayPolicies.js';
import { RECORDED_SUMMARIZER_LABEL, replaySession } from './replaySession.js';
import { CallMetrics } from './metrics/CallMetrics.js';
import { CACHE_PROVIDERS, CACHE_RULES } from '../cache/index.js';
import { importedSession } from '../test-utils/importedSession.js';

/** One token per character: every figure below can be computed by hand. */
const CHARS: TokenCounter = { countText: (text) => text.length };
const tokens = (entries: readonly IContent[]) =>
  entries.reduce((sum, entry) => sum + contentTokenText(entry).length, 0);

const T0 = Date.UTC(2026, 0, 2, 10);
const at = (entry: IContent, seconds: number): IContent => ({
  ...entry,
  metadata: { ...entry.metadata, timestamp: T0 + seconds * 1000 },
});
const SUMMARY: IContent = {
  ...human('Summary: a.ts was read; the task is to set a to 2.'),
  metadata: { isSummary: true, timestamp: T0 + 130_000, compactionStartedAt: T0 + 60_000 },
};
const FILE = 'export const a = 1;\n'.repeat(10);
const [readCall, readResult] = readFile('c1', 'a.ts', FILE);
const BEFORE = [human('Look at a.ts'), at(readCall, 10), readResult, at(ai('It sets a to 1.'), 20)];
const AFTER = [at(ai('Continuing: setting a to 2.'), 140), human('Thanks')];
const SESSION = [...BEFORE, human('Go on'), SUMMARY, ...AFTER];

const session = (contents: readonly IContent[]): ImportedSession =>
  importedSession(contents, { format: 'claude-code' });

async function replay(contents: readonly IContent[], id: ReplayPolicyId) {
  const prepared = await prepareReplay(session(contents), { tokenCounter: CHARS });
  let clock = 0;
  return replaySession(prepared, {
    policy: getReplayPolicy(id),
    contextLimit: 128_000,
    tokenCounter: CHARS,
    now: () => (clock += 1),
  });
}

describe('#25.1 the recorded policy', () => {
  it('#25.1 at a recorded boundary the history becomes the summary; the summarization call is priced', async () => {
    const run = await replay(SESSION, 'recorded');
    const atBoundary = tokens([...BEFORE, human('Go on')]);
    const summary = tokens([SUMMARY]);
    // Calls: after the first message, after the read, then the first call after the summary.
    expect(run.series).toEqual([tokens(BEFORE.slice(0, 1)), tokens(BEFORE.slice(0, 3)), summary]);
    expect(run.report).toMatchObject({
      strategy: 'recorded',
      contextLimit: null,
      compressions: 1,
      summarizer: RECORDED_SUMMARIZER_LABEL,
      summarization: { calls: 1, inputTokens: atBoundary, outputTokens: summary },
      finalContextTokens: tokens([SUMMARY, ...AFTER]),
      peakContextTokens: atBoundary,
      cumulativeInputTokens:
        tokens(BEFORE.slice(0, 1)) + tokens(BEFORE.slice(0, 3)) + summary + atBoundary,
    });
    expect(run.compactionCalls).toEqual([2]);
    // The file read was live and the summary does not show it: lost to the compaction.
    expect(run.report.liveLostTokensBy.compression).toBeGreaterThan(0);
  });

  it('#25.1 the summary is billed at the output price on top of its input', () => {
    const contents = SESSION.slice(0, 4);
    const sample = { contents, contextTokens: 5000, tokensOf: () => 1250 };
    const call = new CallMetrics();
    call.record(sample);
    const summarization = new CallMetrics();
    summarization.recordSummarization(sample, 100);
    const [a, b] = [call.totals(), summarization.totals()];
    for (const provider of CACHE_PROVIDERS) {
      expect(b.cacheCost[provider].weightedTokens - a.cacheCost[provider].weightedTokens).toBe(
        Math.round(100 * CACHE_RULES[provider].outputMultiplier),
      );
    }
    expect(b).toMatchObject({
      modelCalls: 0,
      cumulativeInputTokens: 5000,
      summarization: { calls: 1, inputTokens: 5000, outputTokens: 100 },
    });
  });

  it('#25.2 every other policy replays the session end to end and keeps the summary as the next message', async () => {
    const none = await replay(SESSION, 'none');
    expect(none.series.at(-1)).toBe(tokens([...BEFORE, human('Go on'), SUMMARY]));
    const dense = await replay(SESSION, 'high-density');
    expect(dense.report.modelCalls).toBe(3);
    expect(dense.report.compressions).toBe(0);
  });

  it('#25.1 a summary a session starts from is no compaction', async () => {
    const run = await replay([SUMMARY, ...AFTER], 'recorded');
    expect(run.report.compressions).toBe(0);
    expect(run.report.summarization?.calls).toBe(0);
  });

  it('#25.5 time blocked: recorded for the agent, measured for Dense, per compaction and in total', async () => {
    const recorded = await replay(SESSION, 'recorded');
    expect(recorded.report.timeBlocked).toEqual({
      timed: 1,
      totalMs: 70_000,
      maxMs: 70_000,
      perCompactionMs: [70_000],
      source: 'recorded',
    });
    const untimed = await replay(
      [...BEFORE, human('Go on'), { ...SUMMARY, metadata: { isSummary: true } }, ...AFTER],
      'recorded',
    );
    expect(untimed.report.timeBlocked).toMatchObject({ timed: 0, perCompactionMs: [null] });
    const prepared = await prepareReplay(session(SESSION), { tokenCounter: CHARS });
    let clock = 0;
    const squeezed = await replaySession(prepared, {
      policy: getReplayPolicy('top-down-truncation'),
      contextLimit: 260,
      tokenCounter: CHARS,
      now: () => (clock += 5),
    });
    expect(squeezed.report.compressions).toBeGreaterThan(0);
    expect(squeezed.report.timeBlocked?.source).toBe('measured');
    expect(squeezed.report.timeBlocked?.timed).toBe(squeezed.report.compressions);
    expect(squeezed.report.timeBlocked?.totalMs).toBeGreaterThan(0);
  });
});

describe('#25.1 the recorded policy restores what the agent re-attached after its compaction', () => {
  const versioned = (version: string): IContent[] =>
    SESSION.map((entry) =>
      entry === SUMMARY
        ? { ...SUMMARY, metadata: { ...SUMMARY.metadata, agentVersion: version } }
        : entry,
    );
  const restoredFile = `a.ts\n${FILE.split('\n')
    .map((line, i) => `${String(i + 1).padStart(6)}→${line}`)
    .join('\n')}`;

  it('#25.1 Claude Code 1.0.77: the recently read file is in the history after the boundary and in its tokens', async () => {
    const run = await replay(versioned('1.0.77'), 'recorded');
    const summary = tokens([SUMMARY]);
    expect(run.series.at(-1)).toBe(summary + restoredFile.length);
    expect(run.report.finalContextTokens).toBe(tokens([SUMMARY, ...AFTER]) + restoredFile.length);
  });

  it('#25.1 Claude Code 1.0.113 restores nothing; other policies never add it', async () => {
    const newer = await replay(versioned('1.0.113'), 'recorded');
    expect(newer.series.at(-1)).toBe(tokens([SUMMARY]));
    const none = await replay(versioned('1.0.77'), 'none');
    expect(none.report.finalContextTokens).toBe(tokens(versioned('1.0.77')));
  });
});

describe('#35.3 a compaction the user asked for (/compact)', () => {
  // A longer session before the boundary: a policy has earlier turns to compress.
  const earlier = Array.from({ length: 12 }, (_, i) => [
    human(`Step ${i}: look at file ${i}`),
    at(ai(`File ${i} holds ${'x'.repeat(200)}`), i),
  ]).flat();
  const withTrigger = (trigger: string | undefined): IContent[] => [
    ...earlier,
    ...BEFORE,
    human('Go on'),
    { ...SUMMARY, metadata: { ...SUMMARY.metadata, compactionTrigger: trigger } },
    ...AFTER,
  ];
  const atBoundary = tokens([...earlier, ...BEFORE, human('Go on'), SUMMARY]);

  it('#35.3 a policy that manages the context runs its compression there (as /compress); the reference does not', async () => {
    for (const id of ['high-density', 'one-shot'] as const) {
      const run = await replay(withTrigger('manual'), id);
      expect(run.report.compressions, id).toBe(1);
      expect(run.series.at(-1), id).toBeLessThan(atBoundary);
    }
    const none = await replay(withTrigger('manual'), 'none');
    expect(none.report.compressions).toBe(0);
    expect(none.series.at(-1)).toBe(atBoundary);
  });

  it('#35.3 the client compacting on its own (no trigger recorded, or auto) sets nothing off', async () => {
    for (const trigger of [undefined, 'auto']) {
      const run = await replay(withTrigger(trigger), 'high-density');
      expect(run.report.compressions).toBe(0);
      expect(run.series.at(-1)).toBe(atBoundary);
    }
  });

  it('#35.3 the recorded policy follows a manual compaction as it follows any', async () => {
    const run = await replay(withTrigger('manual'), 'recorded');
    expect(run.report.compressions).toBe(1);
    expect(run.series.at(-1)).toBe(tokens([SUMMARY]));
  });
});
