import { describe, expect, it } from 'vitest';
import { readAnthropicRequest } from '../anthropicHistory.js';
import { parseJsonSpans } from '../jsonSpans.js';
import { planProxyEdits } from '../planProxyEdits.js';
import { pointerSite } from '../proxyPointer.js';
import { pointerValue, spliceEdits } from '../spliceEdits.js';
import { bigSessionTurns } from '../test-utils/bigSession.js';
import { compactWire, type BudgetState } from './compactWire.js';
import { compactionLayout } from './compactionLayout.js';

/** compactWire on `body` with density's pointers, counting the characters of sent text built. */
function compactCounting(body: string, budgetTokens: number) {
  const root = parseJsonSpans(body);
  const outcome = readAnthropicRequest(body, root);
  if (outcome.kind !== 'history') throw new Error('not read');
  const { wire } = outcome;
  const sites = planProxyEdits(wire).map((site) => pointerSite(wire, site));
  const edits = sites.map((site) => ({
    start: site.start,
    end: site.end,
    length: pointerValue(site).length,
  }));
  let built = 0;
  const state: BudgetState = { compaction: undefined, promptTokensPerChar: undefined };
  const result = compactWire({
    original: body,
    wire,
    layout: () => compactionLayout('anthropic', wire, root),
    // Called without a range, it builds the whole sent text.
    sent: (...range: readonly number[]) => {
      const [from = 0, to = body.length] = range;
      built += to - from;
      const inside = sites.filter((site) => site.start >= from && site.end <= to);
      const shifted = inside.map((site) => ({
        ...site,
        start: site.start - from,
        end: site.end - from,
      }));
      return spliceEdits(body.slice(from, to), shifted).text;
    },
    edits: {
      sentChars: spliceEdits(body, sites).text.length,
      within: (from, to) =>
        edits
          .filter((edit) => edit.start >= from && edit.end <= to)
          .sort((a, b) => a.start - b.start),
    },
    model: undefined,
    state,
    budgetTokens,
    longContext: false,
    readOnly: false,
  });
  return { result, built, sites };
}

describe('compactWire', () => {
  it('#24.4 builds the sent text only for a request that is not clearly under its budget', () => {
    const [body] = bigSessionTurns(40_000, 1) as [string];
    const under = compactCounting(body, 10_000_000);
    expect(under.sites.length).toBeGreaterThan(0);
    expect(under).toMatchObject({ result: { kind: 'none' }, built: 0 });
    const over = compactCounting(body, 5_000);
    expect(over).toMatchObject({ result: { kind: 'compacted' } });
    expect(over.built).toBeGreaterThan(0);
  });

  it('#24.4 builds only the sent text that goes out: never the messages the summary replaces', () => {
    const [body] = bigSessionTurns(40_000, 1) as [string];
    const { result, built, sites } = compactCounting(body, 5_000);
    if (result.kind === 'none') throw new Error('not compacted');
    const whole = spliceEdits(body, sites).text;
    // Everything before the cut is replaced; only the text after it is spliced.
    expect(built).toBeLessThan(body.length / 4);
    expect(result.text.length).toBe(whole.length - result.removedChars);
  });
});
