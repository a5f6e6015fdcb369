/**
 * compactWire's input for an Anthropic request with density's pointers applied, as the proxy
 * builds it; `onBuilt` hears how many characters of sent text each `sent` call builds.
 */
import { readAnthropicRequest } from '../wire/anthropicHistory.js';
import { compactionLayout } from '../budget/compactionLayout.js';
import type { BudgetState, CompactInput } from '../budget/compactWire.js';
import { parseJsonSpans } from '../wire/jsonSpans.js';
import { planProxyEdits } from '../decide/planProxyEdits.js';
import { pointerSite } from '../decide/proxyPointer.js';
import { pointerValue, spliceEdits, type PointerSite } from '../splice/spliceEdits.js';

export function densityCompactInput(
  body: string,
  budgetTokens: number,
  onBuilt: (chars: number) => void = () => undefined,
): { input: CompactInput; sites: PointerSite[]; sent: string } {
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
  const sent = spliceEdits(body, sites).text;
  const state: BudgetState = { compaction: undefined, promptTokensPerChar: undefined };
  const input: CompactInput = {
    original: body,
    wire,
    layout: () => compactionLayout('anthropic', wire, root),
    // Called without a range, it builds the whole sent text.
    sent: (...range: readonly number[]) => {
      const [from = 0, to = body.length] = range;
      onBuilt(to - from);
      const inside = sites.filter((site) => site.start >= from && site.end <= to);
      const shifted = inside.map((site) => ({
        ...site,
        start: site.start - from,
        end: site.end - from,
      }));
      return [spliceEdits(body.slice(from, to), shifted).text];
    },
    edits: {
      sentChars: sent.length,
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
  };
  return { input, sites, sent };
}
