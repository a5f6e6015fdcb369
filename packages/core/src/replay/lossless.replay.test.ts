import { describe, expect, it } from 'vitest';
import { ai, human, readFile, toolRoundTrip } from '../test-utils/historyBuilders.js';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import type { IContent } from '../services/history/IContent.js';
import type { ImportedSession } from '../transcripts/types.js';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';
import { prepareReplay } from './prepareReplay.js';
import { getReplayPolicy, type ReplayPolicyId } from './replayPolicies.js';
import { replaySession } from './replaySession.js';
import { importedSession } from '../test-utils/importedSession.js';

const CHARS: TokenCounter = { countText: (text) => Math.ceil(text.length / 4) };

const session = (contents: readonly IContent[]): ImportedSession => importedSession(contents);

/** 30 rounds: a distinct file read and a distinct command each; every read stays live. */
const ROUNDS = Array.from({ length: 30 }, (_, i) => [
  human(`step ${i}`),
  ...readFile(`r${i}`, `src/f${i}.ts`, `const v${i} = ${i}; // padding padding\n`.repeat(40)),
  ...toolRoundTrip(
    `s${i}`,
    'run_shell_command',
    { command: `npm test -- t${i}` },
    'ok\nExit Code: 0',
  ),
  ai(`done ${i}`),
]).flat();

async function replay(id: ReplayPolicyId, settings: EphemeralSettings = {}) {
  const prepared = await prepareReplay(session(ROUNDS), { tokenCounter: CHARS });
  let clock = 0;
  return replaySession(prepared, {
    policy: getReplayPolicy(id),
    contextLimit: 12_000,
    tokenCounter: CHARS,
    settings,
    now: () => (clock += 1),
  });
}

describe('replay: lossless by reference (issue #11)', () => {
  it('#11.1 high-density: every live loss is recallable by default; none with spec pointers', async () => {
    const { report } = await replay('high-density');
    expect(report.compressions).toBeGreaterThan(0);
    expect(report.liveLostTokens).toBeGreaterThan(0);
    expect(report.liveLostRecallableTokens).toBe(report.liveLostTokens);
    const spec = (
      await replay('high-density', {
        'compression.density.pointerStyle': 'spec',
        'compression.artifactTrail': false,
        'compression.density.workingBudget': 0,
      })
    ).report;
    expect(spec.liveLostTokens).toBeGreaterThan(0);
    expect(spec.liveLostRecallableTokens).toBe(0);
  });

  it('#11.3 artifact survival: the trail keeps every touched path and command named; without it they go', async () => {
    for (const id of ['high-density', 'top-down-truncation'] as const) {
      // The trail entry after the threshold's compression (a working-budget summary carries a
      // trail of its own size: bench:replay reports it).
      const on = (await replay(id, { 'compression.density.workingBudget': 0 })).report
        .artifactSurvival;
      expect(on?.touched).toBeGreaterThan(0);
      expect(on?.present).toBe(on?.touched);
    }
    // Truncation without the trail forgets what it dropped.
    const off = (await replay('top-down-truncation', { 'compression.artifactTrail': false })).report
      .artifactSurvival;
    expect(off?.present ?? 0).toBeLessThan(off?.touched ?? 0);
  });
});
