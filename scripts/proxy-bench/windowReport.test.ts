import { describe, expect, it } from 'vitest';
import type { BilledRequest } from './cacheBillingMock.js';
import type { SessionReplay } from './sessionReplay.js';
import { sumGrounding } from '../../packages/core/src/replay/grounding/sumGrounding.js';
import type { SideGroundingReport } from './SideGrounding.js';
import { ZERO_SIDE_INTENT } from './SideIntent.js';
import {
  floorPercent,
  WINDOW_TARGET_PERCENT,
  windowBudget,
  windowOverall,
  windowRow,
  windowTable,
  type WindowRow,
} from './windowReport.js';

/** A side that showed `visible` and could recall `recallable` of 100 used specifics. */
const side = (visible: number, recallable = 0): SideGroundingReport => ({
  ...sumGrounding([]),
  specifics: 100,
  visible,
  recallable,
  hidden: 100 - visible - recallable,
  recallCallsNeeded: recallable > 0 ? 1 : 0,
  recallIds: [],
});

const row = (file: string, pass: number, proxy: number, peak: number): WindowRow => ({
  file,
  source: 'synthetic',
  model: 'claude-sonnet-4-6',
  calls: 10,
  passThroughCost: pass,
  proxyCost: proxy,
  percent: (100 * proxy) / pass,
  passThroughPeak: peak,
  proxyPeak: Math.min(peak, 80_000),
  budget: 80_000,
  pastBudget: peak > 80_000,
  floorPercent: peak > 80_000 ? 60 : 100,
  budgetCompactions: peak > 80_000 ? 1 : 0,
  clientCompactions: { passThrough: 0, proxy: 0 },
  grounding: { passThrough: side(100), proxy: peak > 150_000 ? side(95, 5) : side(99, 1) },
});

describe('bench:proxy window report', () => {
  it("#24.5 the budget at a 1M window is the proxy's default for the client: Claude Code's and Codex's", () => {
    expect(windowBudget('anthropic', 'claude-sonnet-4-6', 1_000_000)).toBe(80_000);
    expect(windowBudget('anthropic', 'claude-opus-4-5', 1_000_000)).toBe(80_000);
    // A model Dense's table does not know: Codex's own window for it (272,000) gives 80,000;
    // as a Claude Code request it would get 70,000.
    expect(windowBudget('openai-responses', 'gpt-6.1-sol', 1_000_000)).toBe(80_000);
    expect(windowBudget('anthropic', 'gpt-6.1-sol', 1_000_000)).toBe(70_000);
  });

  it('#24.5 the figures past the budget count only the sessions whose history grew past it, each against 85%', () => {
    const rows = [
      row('a', 1_000, 500, 200_000),
      row('b', 1_000, 900, 90_000),
      row('c', 1_000, 1_000, 40_000),
    ];
    const total = windowOverall(1_000_000, rows);
    expect(total.pastBudget.sessions).toBe(2);
    expect(total.pastBudget.percent).toBeCloseTo(70);
    expect(total.pastBudget.highestPercent).toBeCloseTo(90);
    expect(total.pastBudget.overTarget).toEqual(['b']);
    expect(total.percent).toBeCloseTo(80);
    // Grounding beside it: 'a' shows 95 of 100 used specifics through the proxy, below 97%.
    expect(total.pastBudget.belowGroundingAim).toEqual(['a']);
    expect(total.pastBudget.grounding.proxy).toMatchObject({ specifics: 200, visible: 194 });
    const table = windowTable(rows, total);
    expect(table).toContain(`1 above ${WINDOW_TARGET_PERCENT}%: b`);
    expect(table).toContain(
      '| a | claude-sonnet-4-6 | 10 | 1.0k | 50.0% | 60.0% | 200.0k / 80.0k | 80.0k | yes | 1 | 100.0% / 95.0% | 100.0% |',
    );
  });

  it('#24.5 the floor is the share of pass-through cost billed before the history first passed the budget', () => {
    const bills = [50_000, 70_000, 90_000, 60_000].map(
      (promptTokens) => ({ promptTokens, weighted: promptTokens / 10 }) as BilledRequest,
    );
    expect(floorPercent(bills, 80_000)).toBeCloseTo((100 * 12) / 27);
    expect(floorPercent(bills, 100_000)).toBe(100);
    expect(floorPercent(bills, undefined)).toBe(100);
  });

  it('#24.5 a budget given to the proxy replaces the default in the row; off means none', () => {
    const bills = [50_000, 70_000].map(
      (promptTokens) => ({ promptTokens, weighted: promptTokens / 10 }) as BilledRequest,
    );
    const sides = { cost: 12_000 } as SessionReplay['passThrough'];
    const none = { client: 0, synthetic: 0, answeredByDense: 0, blockedMs: 0 };
    const replay = {
      api: 'anthropic',
      model: 'claude-sonnet-4-6',
      client: { window: 1_000_000, threshold: 967_000, source: 'bench-window' },
      calls: 2,
      passThrough: sides,
      proxy: sides,
      compactions: { passThrough: none, proxy: none },
      addedLatencyMs: [],
      records: [],
      bills: { passThrough: bills, proxy: bills },
      grounding: { passThrough: side(100), proxy: side(100) },
      intent: { passThrough: ZERO_SIDE_INTENT, proxy: ZERO_SIDE_INTENT },
    } as SessionReplay;
    const at = { file: 's', source: 'synthetic', window: 1_000_000, replay };
    expect(windowRow(at)).toMatchObject({ budget: 80_000, pastBudget: false });
    expect(windowRow({ ...at, workingBudget: 60_000 })).toMatchObject({
      budget: 60_000,
      pastBudget: true,
    });
    expect(windowRow({ ...at, workingBudget: 'off' })).toMatchObject({
      budget: undefined,
      pastBudget: false,
    });
  });
});
