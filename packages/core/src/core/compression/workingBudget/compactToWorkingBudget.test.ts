import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HighDensityStrategy } from '../HighDensityStrategy.js';
import {
  ArtifactTrailKeeper,
  isTrailEntry,
  SHORT_ROOM_TRAIL_SHARE,
} from '../artifactTrail/ArtifactTrailKeeper.js';
import { makeCompressionContext } from '../../../test-utils/compressionContext.js';
import { human, readFile, toolRoundTrip } from '../../../test-utils/historyBuilders.js';
import { charEstimateTokenCounter } from '../../../services/history/TokenCounter.js';
import type { IContent } from '../../../services/history/IContent.js';
import type { EphemeralSettings } from '../../../settings/settingsRegistry.js';
import type { CompressionContext, CompressionResult } from '../types.js';
import { isWorkingBudgetSummary } from './compactToWorkingBudget.js';
import { getSettingSpec } from '../../../settings/settingsRegistry.js';
import { parseSettingValue } from '../../../settings/parseSettingValue.js';
import { autoWorkingBudget } from './autoWorkingBudget.js';
import { AUTO_WORKING_BUDGET, workingBudgetTokens } from './workingBudgetTokens.js';

const TASK = 'Make the tokenizer in src/lex.ts accept unicode identifiers.';
const strategy = new HighDensityStrategy();

/** The task, then `rounds` reads of distinct files of `chars` characters each. */
function session(rounds: number, chars = 4_000): IContent[] {
  const history: IContent[] = [human(TASK)];
  for (let i = 0; i < rounds; i++) {
    const line = `${i}: const token${i} = scan(source${i});\n`;
    history.push(...readFile(`read${i}`, `/w/src/f${i}.ts`, line.repeat(chars / line.length)));
  }
  return history;
}

function context(
  history: readonly IContent[],
  settings: EphemeralSettings,
): Promise<CompressionContext> {
  return makeCompressionContext({
    history,
    settings: { 'context-limit': 100_000, ...settings },
    tokenCounter: charEstimateTokenCounter,
  });
}

const textOf = (entry: IContent | undefined): string =>
  entry?.blocks[0]?.type === 'text' ? entry.blocks[0].text : '';

function applied(result: CompressionResult) {
  if (result.kind !== 'applied') throw new Error(`noop: ${result.reason}`);
  return result;
}

describe('#35.1 working budget setting', () => {
  it('#35.1 tokens, a share of the window, or off', () => {
    expect(workingBudgetTokens(0, 128_000, 0.85)).toBeUndefined();
    expect(workingBudgetTokens(0.5, 128_000, 0.85)).toBe(64_000);
    expect(workingBudgetTokens(1, 128_000, 0.85)).toBe(128_000);
    expect(workingBudgetTokens(40_000, 128_000, 0.85)).toBe(40_000);
    expect(workingBudgetTokens(400_000, 128_000, 0.85)).toBe(128_000);
  });

  it('#35.1 auto is the proxy rule for the window and threshold', () => {
    expect(workingBudgetTokens(AUTO_WORKING_BUDGET, 128_000, 0.85)).toBe(80_000);
    expect(workingBudgetTokens(AUTO_WORKING_BUDGET, 1_000_000, 0.85)).toBe(80_000);
    // A small window: room for the next result is a quarter of the threshold (13,600 - 3,400).
    expect(workingBudgetTokens(AUTO_WORKING_BUDGET, 16_000, 0.85)).toBe(10_200);
    // A lower threshold lowers it: 0.5 x 128,000 less 16,000 of room.
    expect(workingBudgetTokens(AUTO_WORKING_BUDGET, 128_000, 0.5)).toBe(48_000);
  });

  it('#35.1 the registry default is auto; `auto` and `off` are words, a negative number is refused', () => {
    expect(getSettingSpec('compression.density.workingBudget').default).toBe(AUTO_WORKING_BUDGET);
    expect(parseSettingValue('compression.density.workingBudget', 'auto')).toMatchObject({
      ok: true,
      value: AUTO_WORKING_BUDGET,
    });
    expect(parseSettingValue('compression.density.workingBudget', 'off')).toMatchObject({
      ok: true,
      value: 0,
    });
    const negative = parseSettingValue('compression.density.workingBudget', '-0.5');
    expect(negative.ok).toBe(false);
  });

  it('#35.1 property: the auto budget stays below the threshold and within the window share', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1_000, max: 2_000_000 }),
        fc.double({ min: 0.1, max: 1, noNaN: true }),
        (window, share) => {
          const threshold = Math.floor(window * share);
          const budget = autoWorkingBudget(window, threshold);
          expect(budget).toBeGreaterThanOrEqual(1);
          expect(budget).toBeLessThan(threshold);
          expect(budget).toBeLessThanOrEqual(Math.floor(window * 0.75));
          expect(budget).toBeLessThanOrEqual(80_000);
        },
      ),
    );
  });

  it('#35.1 high-density asks for compress() from the early budget unless the budget is off', async () => {
    const off = await context([], { 'compression.density.workingBudget': 0 });
    expect(strategy.compactionDueTokens(off.settings)).toBeUndefined();
    const on = await context([], { 'compression.density.workingBudget': 0.4 });
    expect(strategy.compactionDueTokens(on.settings)).toBe(Math.floor(40_000 * 0.85));
    const auto = await context([], {});
    expect(strategy.compactionDueTokens(auto.settings)).toBe(
      Math.floor(autoWorkingBudget(100_000, 85_000) * 0.85),
    );
  });
});

describe('#35.1 high-density compacts to the working budget', () => {
  it('#35.1 past the early budget: one summary entry with the task pinned and recall ids, then whole newest turns, under 30% of the budget', async () => {
    const history = session(16);
    const ctx = await context(history, { 'compression.density.workingBudget': 16_000 });
    expect(ctx.currentTokenCount).toBeGreaterThan(16_000 * 0.85);
    const result = applied(await strategy.compress(ctx));
    const [summary, ...rest] = result.newHistory;
    expect(isWorkingBudgetSummary(summary)).toBe(true);
    expect(textOf(summary)).toContain(TASK);
    expect(textOf(summary)).toMatch(/recall id r[0-9a-f]{10}/);
    // The kept turns are the history's own, unchanged, starting with the model's turn.
    expect(rest[0]?.speaker).toBe('ai');
    expect(history.slice(history.length - rest.length)).toEqual(rest);
    expect(await ctx.estimateTokens(result.newHistory)).toBeLessThan(16_000);
    expect(result.metadata.carriesTrail).toBe(true);
    // The removed messages' transcript, which no entry holds, goes with the result for the archive.
    const messagesId = /dense recall (r[0-9a-f]{10}) --grep/.exec(textOf(summary))?.[1];
    const whole = result.metadata.recall?.find((original) => original.id === messagesId);
    expect(whole?.text).toContain('/w/src/f0.ts');
    expect(whole?.pieces?.join('')).toBe(whole?.text);
  });

  it('#35.1 asked for by the early budget alone compress() rewrites only what the budget asks for; otherwise, what it did without a budget', async () => {
    const history = session(16);
    // Below the threshold (34k) and the early budget (30.6k), over what compress() aims at (7.6k).
    const roomy = { 'context-limit': 40_000, 'compression.density.workingBudget': 0.9 } as const;
    const withoutBudget = {
      'context-limit': 40_000,
      'compression.density.workingBudget': 0,
    } as const;
    const plain = await strategy.compress(await context(history, withoutBudget));
    expect(plain.kind).toBe('applied');
    const early = { ...(await context(history, roomy)), earlyCompaction: true };
    expect((await strategy.compress(early)).kind).toBe('noop');
    // Due for another reason (density planned it): the budget's plan declines, so the threshold's
    // compression runs as it would without a budget.
    expect(await strategy.compress(await context(history, roomy))).toEqual(plain);
    // A threshold below the history: compression is needed, and is what it was without a budget.
    const lowThreshold = { 'compression-threshold': 0.1 } as const;
    const without = await strategy.compress(
      await context(history, { ...withoutBudget, ...lowThreshold }),
    );
    expect(without.kind).toBe('applied');
    const needed = await strategy.compress(await context(history, { ...roomy, ...lowThreshold }));
    expect(needed).toEqual(without);
    expect(needed.newHistory.some(isWorkingBudgetSummary)).toBe(false);
  });

  it('#35.1 an early compaction below the threshold is a bet: over the risk budget the history stays', async () => {
    const history = session(16);
    // Past the budget yet far below the threshold (85k): not needed, so within the risk budget only.
    const ctx = await context(history, { 'compression.density.workingBudget': 14_000 });
    expect(ctx.currentTokenCount).toBeGreaterThan(14_000);
    const broke = { riskTokens: () => 0, readMultiplier: 0.1, writeMultiplier: 1.25 };
    expect((await strategy.compress({ ...ctx, earlyCompactionRisk: broke })).kind).toBe('noop');
    const rich = { ...broke, riskTokens: () => 1_000_000 };
    const made = applied(await strategy.compress({ ...ctx, earlyCompactionRisk: rich }));
    expect(isWorkingBudgetSummary(made.newHistory[0])).toBe(true);
  });

  it('#35.3 one the user asked for (/compress) compacts under every budget, risk or not', async () => {
    const history = session(16);
    // Far below the early budget (68k) and the threshold, with no risk budget left.
    const ctx = await context(history, { 'compression.density.workingBudget': 80_000 });
    const broke = { riskTokens: () => 0, readMultiplier: 0.1, writeMultiplier: 1.25 };
    const base = { ...ctx, earlyCompactionRisk: broke };
    expect((await strategy.compress({ ...base, earlyCompaction: true })).kind).toBe('noop');
    const made = applied(await strategy.compress({ ...base, userAsked: true }));
    expect(isWorkingBudgetSummary(made.newHistory[0])).toBe(true);
    expect(textOf(made.newHistory[0])).toContain(TASK);
    // Cut to the share a budget compaction leaves (30%) of the history it was planned at.
    expect(await ctx.estimateTokens(made.newHistory)).toBeLessThan(ctx.currentTokenCount * 0.3);
  });

  it('#35.1 the trail keeper adds no trail entry beside a summary that carries one', async () => {
    const history = session(16);
    const ctx = await context(history, { 'compression.density.workingBudget': 16_000 });
    const result = applied(await strategy.compress(ctx));
    const kept = new ArtifactTrailKeeper().keepTrail(result, {
      before: history,
      todos: [],
      workspaceRoot: '/w',
      contextLimit: 100_000,
    });
    expect(kept).toEqual(result);
    expect(kept.newHistory.some(isTrailEntry)).toBe(false);
  });

  it('#33.3 what a trail entry lists as tried and failed stays in the summary that covers it', async () => {
    const failed = new ArtifactTrailKeeper().historyWithTrail({
      before: [
        human(TASK),
        ...toolRoundTrip(
          'b1',
          'run_shell_command',
          { command: 'npm run build' },
          'Exit code: 2\nsrc/lex.ts(4,1): error TS2304: Cannot find name scanIdent.',
        ),
      ],
      after: [],
      todos: [],
      workspaceRoot: '/w',
      contextLimit: 100_000,
      share: SHORT_ROOM_TRAIL_SHARE,
    });
    expect(textOf(failed[0])).toContain('Tried and failed:');
    const history = [...failed, ...session(16).slice(1)];
    const result = applied(
      await strategy.compress(
        await context(history, { 'compression.density.workingBudget': 16_000 }),
      ),
    );
    expect(result.newHistory.some(isTrailEntry)).toBe(false);
    const summary = textOf(result.newHistory[0]);
    expect(summary).toContain('Tried and failed:');
    expect(summary).toContain('`npm run build` → exit 2: src/lex.ts(4,1): error TS2304');
    expect(summary.split(TASK)).toHaveLength(2);
  });

  it('#35.1 a second compaction replaces the first summary with one written from the original turns', async () => {
    const first = session(16);
    const ctx = await context(first, { 'compression.density.workingBudget': 16_000 });
    const once = applied(await strategy.compress(ctx));
    const more = session(30).slice(first.length);
    const grown = [...once.newHistory, ...more];
    const twice = applied(
      await strategy.compress(
        await context(grown, { 'compression.density.workingBudget': 16_000 }),
      ),
    );
    expect(twice.newHistory.filter(isWorkingBudgetSummary)).toHaveLength(1);
    const summary = textOf(twice.newHistory[0]);
    // The task was typed in the turns the first summary replaced: pinned once, from its original.
    expect(summary.split(TASK)).toHaveLength(2);
    expect(summary).toMatch(/Dense compacted the \d+ earliest messages/);
    const count = Number(/compacted the (\d+) earliest/.exec(summary)?.[1]);
    expect(count).toBe(first.length + more.length - (twice.newHistory.length - 1));
  });

  it('#35.2 a compaction the newest turn held short of its target is finished one reply later, under the early budget', async () => {
    const budget = { 'compression.density.workingBudget': 16_000 } as const;
    const big = '9: const wide = measure(source);\n'.repeat(800);
    const first = [...session(12), ...readFile('big', '/w/src/big.ts', big)];
    const once = applied(await strategy.compress(await context(first, budget)));
    // The newest turn (the big result, not yet seen by the model) stays whole after the summary.
    expect(once.newHistory.slice(1)).toEqual(first.slice(-2));
    const reply = readFile('next', '/w/src/next.ts', 'export const next = 1;\n');
    const answered = [...once.newHistory, ...reply];
    const ctx = await context(answered, budget);
    expect(ctx.currentTokenCount).toBeLessThan(16_000 * 0.85);
    expect(strategy.compactionFinishDue(ctx.settings, answered)).toBe(true);
    const finished = applied(await strategy.compress({ ...ctx, earlyCompaction: true }));
    expect(finished.newHistory.slice(1)).toEqual(reply);
    expect(textOf(finished.newHistory[0])).toContain(TASK);
    expect(await ctx.estimateTokens(finished.newHistory)).toBeLessThan(
      (await ctx.estimateTokens(answered)) - 5_000,
    );
    // Once: a second reply later the history is not asked about again.
    const later = [...answered, ...readFile('n2', '/w/src/n2.ts', 'export const n2 = 2;\n')];
    expect(strategy.compactionFinishDue(ctx.settings, later)).toBe(false);
  });

  it('#35.2 compress() is not asked for under the early budget after a compaction that kept more than its newest turn, nor with the budget off', async () => {
    const budget = { 'compression.density.workingBudget': 16_000 } as const;
    const once = applied(await strategy.compress(await context(session(16), budget)));
    expect(once.newHistory.length).toBeGreaterThan(3);
    const answered = [...once.newHistory, ...readFile('next', '/w/src/next.ts', 'x;\n')];
    const ctx = await context(answered, budget);
    expect(strategy.compactionFinishDue(ctx.settings, answered)).toBe(false);
    const off = await context(answered, { 'compression.density.workingBudget': 0 });
    expect(strategy.compactionFinishDue(off.settings, answered)).toBe(false);
  });
});
