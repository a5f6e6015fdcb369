/**
 * Issue #35.2 on invented sessions replayed end to end (the same AgentSession, CompressionHandler
 * and DensityScheduler as the CLI): high-density never loses to `none` by rewriting its history,
 * whether the session ends right after a batch or grows just past the window.
 */
import { describe, expect, it } from 'vitest';
import { importedSession } from '../test-utils/importedSession.js';
import {
  ai,
  human,
  readFile,
  replaceInFile,
  toolRoundTrip,
} from '../test-utils/historyBuilders.js';
import type { TokenCounter } from '../services/history/TokenCounter.js';
import type { IContent } from '../services/history/IContent.js';
import { prepareReplay } from './prepareReplay.js';
import { getReplayPolicy, type ReplayPolicyId } from './replayPolicies.js';
import { replaySession } from './replaySession.js';
import type { EphemeralSettings } from '../settings/settingsRegistry.js';

/** One token per character. */
const CHARS: TokenCounter = { countText: (text) => text.length };

/** `chars` characters of invented source, distinct per name (no two outputs share a line). */
function body(name: string, chars: number): string {
  const line = `const ${name.replace(/\W/g, '_')} = 0;\n`;
  return `// ${name}\n${line.repeat(Math.ceil(chars / line.length))}`.slice(0, chars);
}

/** The threshold's own decisions, with no working budget in front of them. */
const THRESHOLD_ONLY: EphemeralSettings = { 'compression.density.workingBudget': 0 };

async function replay(
  contents: readonly IContent[],
  id: ReplayPolicyId,
  contextLimit: number,
  settings: EphemeralSettings = THRESHOLD_ONLY,
) {
  const prepared = await prepareReplay(importedSession(contents), { tokenCounter: CHARS });
  let clock = 0;
  const { report } = await replaySession(prepared, {
    policy: getReplayPolicy(id),
    contextLimit,
    tokenCounter: CHARS,
    settings,
    now: () => (clock += 1),
  });
  return report;
}

const cost = (report: { cacheCost: { anthropic: { weightedTokens: number } } }) =>
  report.cacheCost.anthropic.weightedTokens;

/**
 * Grows just past a 128k window: files that stay live, then files the agent edits one after the
 * other while test output piles up. Each edit makes an earlier read stale, deep in the history.
 */
function justPastTheWindow(): IContent[] {
  const live = Array.from({ length: 12 }, (_, i) =>
    readFile(`l${i}`, `lib/live${i}.ts`, body(`live${i}`, 5_000)),
  ).flat();
  const edited = Array.from({ length: 8 }, (_, i) =>
    readFile(`t${i}`, `src/t${i}.ts`, body(`t${i}`, 4_000)),
  ).flat();
  const cycles = Array.from({ length: 14 }, (_, i) => [
    ...replaceInFile(`w${i}`, `src/t${i % 8}.ts`),
    ...toolRoundTrip(
      `r${i}`,
      'run_shell_command',
      { command: `npm test -- case${i}` },
      body(`run${i}`, 3_000),
    ),
  ]).flat();
  return [human('Fix the failing cases under src/.'), ...live, ...edited, ...cycles, ai('Done.')];
}

/**
 * No compression at 128k: one large file stays live over many small calls, then a file is read,
 * two small ones after it, and the file is edited just before the session's last call (its read
 * goes stale with a few thousand tokens cached after it).
 */
function endsAfterAnEdit(): IContent[] {
  const small = Array.from({ length: 30 }, (_, i) =>
    toolRoundTrip(`s${i}`, 'list_directory', { path: `dir${i}` }, body(`entry${i}`, 200)),
  ).flat();
  return [
    human('Rename the helper in src/a.ts.'),
    ...readFile('big', 'lib/big.ts', body('big', 25_000)),
    ...small,
    ...readFile('a', 'src/a.ts', body('a', 6_000)),
    ...readFile('b', 'src/b.ts', body('b', 1_000)),
    ...readFile('c', 'src/c.ts', body('c', 1_000)),
    ...replaceInFile('edit', 'src/a.ts'),
    ai('Renamed.'),
  ];
}

describe('#35.2 never lose to growing just past the window', () => {
  it('#35.2 a session growing just past the window: high-density compresses rather than rewrite its history again and again, and costs no more than none', async () => {
    const session = justPastTheWindow();
    const none = await replay(session, 'none', 128_000);
    const dense = await replay(session, 'high-density', 128_000);
    expect(none.peakContextTokens).toBeGreaterThan(128_000);
    expect(dense.compressions).toBeGreaterThanOrEqual(1);
    expect(cost(dense)).toBeLessThanOrEqual(cost(none));
    // The default working budget in front of the threshold costs no more either.
    const budgeted = await replay(session, 'high-density', 128_000, {});
    expect(cost(budgeted)).toBeLessThanOrEqual(cost(none));
  });

  it('#35.2 a session that ends right after a batch that would have paid back costs no more than none', async () => {
    const session = endsAfterAnEdit();
    const none = await replay(session, 'none', 128_000);
    const dense = await replay(session, 'high-density', 128_000);
    expect(dense.compressions).toBe(0);
    expect(cost(dense)).toBeLessThanOrEqual(cost(none));
  });
});
