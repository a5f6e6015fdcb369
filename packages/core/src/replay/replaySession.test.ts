import { prunedPointer } from '../core/compression/recallPointers.js';
import { describe, expect, it } from 'vitest';
import { importedSession } from '../test-utils/importedSession.js';
import {
  ai,
  human,
  readFile,
  replaceInFile,
  toolCall,
  toolResult,
  toolRoundTrip,
} from '../test-utils/historyBuilders.js';
import { contentTokenText, type TokenCounter } from '../services/history/TokenCounter.js';
import type { IContent, ToolResponseBlock } from '../services/history/IContent.js';
import { repeatedLinesMarker } from '../core/compression/density/entry/repeatedLinesText.js';
import type { ImportedSession } from '../transcripts/types.js';
import { prepareReplay } from './prepareReplay.js';
import { getReplayPolicy, type ReplayPolicyId } from './replayPolicies.js';
import { replaySession } from './replaySession.js';
import { OFFLINE_SUMMARIZER_LABEL } from './OfflineSummaryProvider.js';

/** One token per character: every figure below can be computed by hand. */
const CHARS: TokenCounter = { countText: (text) => text.length };
const tokens = (entries: readonly IContent[]) =>
  entries.reduce((sum, entry) => sum + contentTokenText(entry).length, 0);

const A_V1 = 'export const a = 1;\n'.repeat(10);
const A_V2 = 'export const a = 2;\n'.repeat(10);

const session = (contents: readonly IContent[], workspaceRoot = '/w'): ImportedSession =>
  importedSession(contents, { workspaceRoot });

async function replay(contents: readonly IContent[], id: ReplayPolicyId, contextLimit = 128_000) {
  const prepared = await prepareReplay(session(contents), { tokenCounter: CHARS });
  let clock = 0;
  return replaySession(prepared, {
    policy: getReplayPolicy(id),
    contextLimit,
    tokenCounter: CHARS,
    now: () => (clock += 1),
  });
}

const READ_EDIT_READ = [
  human('Set a to 2 in a.ts'),
  ...readFile('c1', 'a.ts', A_V1),
  ...replaceInFile('c2', 'a.ts'),
  ...readFile('c3', 'a.ts', A_V2),
  ai('Done: a is 2.'),
  human('Thanks'),
];

describe('replaySession', () => {
  it('none: every call sees the whole recording; figures match a hand count', async () => {
    const { report, series } = await replay(READ_EDIT_READ, 'none');
    const before = (n: number) => tokens(READ_EDIT_READ.slice(0, n));
    expect(series).toEqual([before(1), before(3), before(5), before(7)]);
    expect(report).toMatchObject({
      strategy: 'none',
      contextLimit: null,
      summarizer: null,
      turns: 1,
      modelCalls: 4,
      toolCalls: 3,
      syntheticResponses: 0,
      overflowCalls: 0,
      cumulativeInputTokens: before(1) + before(3) + before(5) + before(7),
      peakContextTokens: before(7),
      finalContextTokens: tokens(READ_EDIT_READ),
      compressions: 0,
      firstCompressionTurn: null,
      staleTokens: { reads: A_V1.length, inclusions: 0, shellReads: 0 },
      staleReclaimedTokens: { reads: 0, inclusions: 0, shellReads: 0 },
      liveLostTokens: 0,
      historyRewrites: 0,
      densityOverheadMs: { median: 0, p99: 0, samples: 0 },
    });
    // #14.1 every prompt is under the 1,024-token minimum: nothing cached, nothing written
    expect(before(7)).toBeLessThan(1_024);
    expect(report.cacheWeightedInputTokens).toBe(report.cumulativeInputTokens);
    expect(report.cacheCost.anthropic.cacheWriteTokens).toBe(0);
    expect(report.timedModelCalls).toBe(0);
  });

  it('REQ-HD-005 high-density: the stale read goes before the next call; nothing live is lost', async () => {
    const none = (await replay(READ_EDIT_READ, 'none')).report;
    const { report, losses } = await replay(READ_EDIT_READ, 'high-density');
    // Issue #11: by default the stale read keeps its call; its result becomes a recall pointer.
    const [readCall, readResult] = READ_EDIT_READ.slice(1, 3) as [IContent, IContent];
    const pointed: IContent = {
      ...readResult,
      blocks: readResult.blocks.map((b) =>
        b.type === 'tool_response' ? { ...b, result: prunedPointer(b, 'stale', 'recall') } : b,
      ),
    };
    const removed = tokens([readCall, readResult]) - tokens([readCall, pointed]);
    expect(report.densityRemovedTokens).toEqual({ readWrite: removed, dedup: 0, recency: 0 });
    expect(report.cumulativeInputTokens).toBe(none.cumulativeInputTokens - 2 * removed);
    expect(report.staleReclaimedTokens).toEqual({
      reads: A_V1.length,
      inclusions: 0,
      shellReads: 0,
    });
    expect(report.liveLostTokens).toBe(0);
    expect(losses.map((l) => [l.exposure.filePath, l.verdict, l.cause])).toEqual([
      ['a.ts', 'stale', 'density'],
    ]);
    expect(report.historyRewrites).toBe(1);
    // Only the result entry changed: the rewrite starts there.
    expect(report.historyRewriteDepth.meanEntries).toBe(1);
    expect(report.densityOverheadMs.samples).toBeGreaterThanOrEqual(4);
    expect(report.finalContextTokens).toBe(tokens(READ_EDIT_READ) - removed);
  });

  it('#14.2 high-density: a recorded write that echoes the content it wrote enters as a marker naming its own parameter', async () => {
    const content = Array.from({ length: 40 }, (_, i) => `line ${i} of the new file\n`).join('');
    const echoed = `Wrote b.md. Here is the updated code:\n${content.replaceAll('\n', '\r\n')}`;
    const contents = [
      human('Write b.md'),
      ...toolRoundTrip('w1', 'write_file', { file_path: 'b.md', content }, echoed),
      ai('Written.'),
    ];
    const none = (await replay(contents, 'none')).report;
    const { report } = await replay(contents, 'high-density');
    const marker = repeatedLinesMarker(
      { callId: 'w1', from: 1, to: 40, parameter: 'content', crlf: true },
      'line 0 of the new file',
      'line 39 of the new file',
    );
    const [call, result] = contents.slice(1, 3) as [IContent, IContent];
    const reply: IContent = {
      ...result,
      blocks: [
        {
          ...(result.blocks[0] as ToolResponseBlock),
          result: `${echoed.split('\n')[0]!}\n${marker}\n`,
        },
      ],
    };
    const keptOut = tokens([call, result]) - tokens([call, reply]);
    expect(keptOut).toBeGreaterThan(content.length / 2);
    // Kept out when it entered: nothing already sent was rewritten.
    expect(report.historyRewrites).toBe(0);
    expect(report.finalContextTokens).toBe(none.finalContextTokens - keptOut);
    expect(report.cumulativeInputTokens).toBe(none.cumulativeInputTokens - keptOut);
    expect(report.liveLostTokens).toBe(0);
  });

  it('a user message after tool results ends the turn without counting a phantom call', async () => {
    const { report } = await replay(
      [
        human('look'),
        toolCall({ id: 'g1', name: 'glob', parameters: { pattern: '*' } }),
        toolResult({ id: 'g1', name: 'glob', result: 'a.ts' }),
        human('now edit'),
        ai('ok'),
      ],
      'high-density',
    );
    expect(report).toMatchObject({ turns: 2, modelCalls: 2, toolCalls: 1 });
  });

  it('continuations and unanswered calls: continueStream turns, synthetic error responses', async () => {
    const { report } = await replay(
      [
        human('q'),
        ai('part 1'),
        ai('part 2'),
        toolCall({ id: 'lost', name: 'read_file', parameters: { file_path: 'a.ts' } }),
      ],
      'middle-out',
    );
    expect(report).toMatchObject({ turns: 3, modelCalls: 3, toolCalls: 1, syntheticResponses: 1 });
  });

  it('a message that cannot fit is recorded anyway and its reply counted as an overflow call', async () => {
    const { report } = await replay(
      [human('x'.repeat(500)), ai('read it')],
      'top-down-truncation',
      200,
    );
    expect(report).toMatchObject({ modelCalls: 1, overflowCalls: 1, peakContextTokens: 500 });
  });

  it('compression at a small limit: counted, its turn noted, the offline summarizer labelled', async () => {
    const rounds = Array.from({ length: 12 }, (_, i) => [
      human(`step ${i}`),
      ...readFile(`r${i}`, `f${i}.ts`, `const v${i} = ${i};\n`.repeat(20)),
      ai(`read f${i}`),
    ]).flat();
    const { report } = await replay(rounds, 'middle-out', 3000);
    expect(report.compressions).toBeGreaterThan(0);
    expect(report.firstCompressionTurn).toBeGreaterThan(1);
    expect(report.summarizer).toBe(OFFLINE_SUMMARIZER_LABEL);
    expect(report.peakContextTokens).toBeLessThanOrEqual(3000);
    expect(report.liveLostTokensBy.compression).toBeGreaterThan(0);
    expect(report.liveLostTokensBy.density).toBe(0);
  });

  it('peer baseline: masking old observations loses live reads, counted as density losses', async () => {
    const rounds = Array.from({ length: 14 }, (_, i) =>
      readFile(`r${i}`, `f${i}.ts`, `const v${i} = ${i};\n`.repeat(5)),
    ).flat();
    const { report, losses } = await replay(
      [human('read all'), ...rounds, ai('done')],
      'mask-10-turns',
    );
    expect(losses.every((l) => l.cause === 'density' && l.verdict === 'live')).toBe(true);
    expect(losses.map((l) => l.exposure.filePath)).toEqual(['f0.ts', 'f1.ts', 'f2.ts', 'f3.ts']);
    expect(report.liveLostTokensBy.density).toBe(4 * 'const v0 = 0;\n'.length * 5);
  });
});
