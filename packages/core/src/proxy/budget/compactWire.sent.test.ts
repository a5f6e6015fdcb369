import { describe, expect, it } from 'vitest';
import { readAnthropicRequest } from '../anthropicHistory.js';
import { parseJsonSpans } from '../jsonSpans.js';
import { planProxyEdits } from '../planProxyEdits.js';
import { pointerSite } from '../proxyPointer.js';
import { pointerValue, spliceEdits } from '../spliceEdits.js';
import { bigSessionTurns } from '../test-utils/bigSession.js';
import { compactWire, type BudgetState } from './compactWire.js';
import { compactionLayout } from './compactionLayout.js';

/** compactWire on `body` with density's pointers, counting how often the sent text is built. */
function compactCounting(body: string, budgetTokens: number) {
  const root = parseJsonSpans(body);
  const outcome = readAnthropicRequest(body, root);
  if (outcome.kind !== 'history') throw new Error('not read');
  const { wire } = outcome;
  const sites = planProxyEdits(wire).map((site) => pointerSite(wire, site));
  let built = 0;
  const state: BudgetState = { compaction: undefined, promptTokensPerChar: undefined };
  const result = compactWire({
    original: body,
    wire,
    layout: () => compactionLayout('anthropic', wire, root),
    sent: () => {
      built++;
      return spliceEdits(body, sites).text;
    },
    edits: sites.map((site) => ({
      start: site.start,
      end: site.end,
      length: pointerValue(site).length,
    })),
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
    expect(over).toMatchObject({ result: { kind: 'compacted' }, built: 1 });
  });
});
