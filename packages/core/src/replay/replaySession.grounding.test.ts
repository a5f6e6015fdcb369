import { describe, expect, it } from 'vitest';
import { ai, human, readFile } from '../test-utils/historyBuilders.js';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import type { IContent } from '../services/history/IContent.js';
import type { ImportedSession } from '../transcripts/types.js';
import { prepareReplay } from './prepareReplay.js';
import { getReplayPolicy, type ReplayPolicyId } from './replayPolicies.js';
import { replaySession } from './replaySession.js';
import { totalReplayReports } from './replayReport.js';
import { importedSession } from '../test-utils/importedSession.js';

const CHARS: TokenCounter = { countText: (text) => text.length };

const session = (contents: readonly IContent[]): ImportedSession => importedSession(contents);

async function replay(contents: readonly IContent[], id: ReplayPolicyId, contextLimit = 128_000) {
  const prepared = await prepareReplay(session(contents), { tokenCounter: CHARS });
  const run = await replaySession(prepared, {
    policy: getReplayPolicy(id),
    contextLimit,
    tokenCounter: CHARS,
  });
  return run.report;
}

/** Fourteen reads, each file defining its own function; the agent then names the first one. */
const READS_THEN_USE = [
  human('read all'),
  ...Array.from({ length: 14 }, (_, i) =>
    readFile(`r${i}`, `f${i}.ts`, `export function loadShard${i}Index() {}\n`.repeat(3)),
  ).flat(),
  ai('The entry point is loadShard0Index in f0.ts.'),
];

describe('#25.3 replay reports grounding per policy', () => {
  it('#25.3 none shows every specific the agent used (a path it named itself first is not one)', async () => {
    const report = await replay(READS_THEN_USE, 'none');
    expect(report.grounding).toMatchObject({ specifics: 1, visible: 1, recallable: 0, hidden: 0 });
  });

  it('#25.3 masking old observations hides the function the agent then names', async () => {
    const report = await replay(READS_THEN_USE, 'mask-10-turns');
    expect(report.grounding?.byKind.identifier).toMatchObject({ specifics: 1, hidden: 1 });
    expect(report.grounding?.examples).toContainEqual(
      expect.objectContaining({ kind: 'identifier', text: 'loadShard0Index', verdict: 'hidden' }),
    );
    const totals = totalReplayReports([report, report]);
    expect(totals.grounding?.hidden).toBe(2 * (report.grounding?.hidden ?? 0));
  });
});

describe('#25.4 replay counts work redone after a compaction', () => {
  const rounds = Array.from({ length: 12 }, (_, i) => [
    human(`step ${i}`),
    ...readFile(`r${i}`, `f${i}.ts`, `const v${i} = ${i};\n`.repeat(20)),
    ai(`read f${i}`),
  ]).flat();
  const reread = [
    ...rounds,
    human('again'),
    ...readFile('again', 'f0.ts', 'const v0 = 0;\n'.repeat(20)),
    ai('ok'),
  ];

  it('#25.4 a compacting policy that lost the first read: the re-read is work redone', async () => {
    const report = await replay(reread, 'top-down-truncation', 3000);
    expect(report.compressions).toBeGreaterThan(0);
    expect(report.workRedone).toEqual({ reacquired: 1, redone: 1, keptInContext: 0 });
  });

  it('#25.4 no compaction, no boundary: a re-read is not counted', async () => {
    const report = await replay(reread, 'none');
    expect(report.workRedone).toEqual({ reacquired: 0, redone: 0, keptInContext: 0 });
  });

  it("#25.4 after the agent's own compaction, a policy that kept the copy: kept in context", async () => {
    const summary = human('summary of the work so far');
    const withSummary = [
      ...rounds.slice(0, 4),
      { ...summary, metadata: { isSummary: true } },
      ...reread.slice(-3),
    ];
    const report = await replay(withSummary, 'none');
    expect(report.workRedone).toEqual({ reacquired: 1, redone: 0, keptInContext: 1 });
  });
});
