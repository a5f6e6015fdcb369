import { describe, expect, it } from 'vitest';
import { readAnthropicRequest } from '../wire/anthropicHistory.js';
import { compactionLayout } from '../budget/compactionLayout.js';
import { earlyBudgetOf, planWireCompaction } from '../budget/planWireCompaction.js';
import { defaultWorkingBudget } from '../budget/workingBudget.js';
import { parseJsonSpans } from '../wire/jsonSpans.js';
import { longSessionMessages } from '../test-utils/longSession.js';
import { anthropicImageBlock, pngBytes } from '../test-utils/syntheticImages.js';
import { anthropicBody } from '../test-utils/wireRequests.js';
import { textTokensPerChar, turnImageCharDeltas, withImageDeltas } from './imageTurnChars.js';

type Json = Record<string, unknown>;
const PER_CHAR = 0.25;

/** A ~22k-token Claude Code session whose first message carries a 600 KB screenshot. */
function screenshotSession(): string {
  const messages = longSessionMessages(20, 4_000);
  const first = messages[0] as { content: Json[] };
  first.content.unshift(anthropicImageBlock(pngBytes(1280, 800, 600 * 1024)));
  return anthropicBody(messages, { model: 'claude-sonnet-4-6' });
}

/** The working budget's plan for `body`, its turns measured as compactWire measures them. */
function plan(body: string, countImages: boolean) {
  const root = parseJsonSpans(body);
  const read = readAnthropicRequest(body, root);
  if (read.kind !== 'history') throw new Error('not read');
  const spans = read.wire.messageSpans;
  const layout = compactionLayout('anthropic', read.wire, root);
  const chars = layout.turns.map((turn, index) => {
    const end = layout.turns[index + 1]?.first ?? spans.length;
    let count = 0;
    for (let item = turn.first; item < end; item++) {
      const span = spans[item];
      if (span !== undefined) count += span.end - span.start + 1;
    }
    return count;
  });
  const deltas = turnImageCharDeltas({
    text: body,
    spans,
    turnFirsts: layout.turns.map((turn) => turn.first),
    tokensPerChar: PER_CHAR,
  });
  const counted = countImages ? withImageDeltas(chars, deltas) : chars;
  const budgetTokens = defaultWorkingBudget({ model: 'claude-sonnet-4-6', longContext: false });
  const messagesChars = (spans.at(-1)?.end ?? 0) - (spans[0]?.start ?? 0);
  return planWireCompaction({
    roles: layout.turns.map((turn) => turn.role),
    messageChars: counted,
    clientMessageChars: counted,
    fixedChars: body.length - messagesChars,
    tokensPerChar: PER_CHAR,
    budgetTokens,
    earlyBudgetTokens: earlyBudgetOf(budgetTokens),
    previousCut: 0,
    summaryChars: 8_000,
  });
}

describe('the working budget counts images by their rule', () => {
  it('#34.4 a 22k-token conversation with a 600 KB screenshot is not compacted (as base64 text it was compacted whole)', () => {
    const body = screenshotSession();
    expect(body.length).toBeGreaterThan(900_000);
    const asText = plan(body, false);
    expect(asText.kind).toBe('compact');
    const byRule = plan(body, true);
    expect(byRule).toEqual({ kind: 'keep', cut: 0, reason: 'under-budget' });
  });

  it('#34.4 a turn with an image counts its tokens at the rate (1,366 tokens → 5,464 characters at 0.25), others are unchanged', () => {
    const body = screenshotSession();
    const read = readAnthropicRequest(body, parseJsonSpans(body));
    if (read.kind !== 'history') throw new Error('not read');
    const spans = read.wire.messageSpans;
    const deltas = turnImageCharDeltas({
      text: body,
      spans,
      turnFirsts: spans.map((_, index) => index),
      tokensPerChar: PER_CHAR,
    });
    const base64 = pngBytes(1280, 800, 600 * 1024).toString('base64').length;
    expect(deltas[0]).toBe(5_464 - base64);
    expect(deltas.slice(1).every((delta) => delta === 0)).toBe(true);
  });

  it('#34.4 the tokens-per-character calibration leaves the sent images out of both sides', () => {
    const sentImages = { chars: 800_000, tokens: 1_366 };
    expect(textTokensPerChar({ promptTokens: 26_366, sentChars: 900_000, sentImages })).toBe(0.25);
    expect(textTokensPerChar({ promptTokens: 25_000, sentChars: 100_000 })).toBe(0.25);
    expect(textTokensPerChar({ promptTokens: 100, sentChars: 0 })).toBeUndefined();
  });
});
