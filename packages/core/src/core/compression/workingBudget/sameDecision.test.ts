/**
 * The proxy and the CLI decide a working-budget compaction with the same code: for the same
 * conversation, sizes, budget and risk, the proxy's `compactWire` and the CLI's high-density
 * strategy cut at the same turn and write the same summary. Only the summary's first recall id
 * differs between the two sides' own stores: it names the removed messages' raw text, which is the
 * wire request's bytes in the proxy and the transcript lines in the CLI.
 */
import { describe, expect, it } from 'vitest';
import { readAnthropicRequest } from '../../../proxy/wire/anthropicHistory.js';
import { compactionLayout } from '../../../proxy/budget/compactionLayout.js';
import {
  compactWire,
  type BudgetState,
  type CompactOutcome,
} from '../../../proxy/budget/compactWire.js';
import { parseJsonSpans } from '../../../proxy/wire/jsonSpans.js';
import {
  bigReadTurn,
  longSessionBody,
  longSessionMessages,
  shortReplyTurn,
} from '../../../proxy/test-utils/longSession.js';
import { anthropicBody } from '../../../proxy/test-utils/wireRequests.js';
import type { WireHistory } from '../../../proxy/wire/wireHistory.js';
import type { IContent } from '../../../services/history/IContent.js';
import { makeCompressionContext } from '../../../test-utils/compressionContext.js';
import { HighDensityStrategy } from '../HighDensityStrategy.js';
import type { CompressionResult } from '../types.js';
import type { EarlyCompactionRisk } from './earlyCompactionRisk.js';
import { planHistoryCompaction } from './planHistoryCompaction.js';

const BUDGET = 20_000;
/** The proxy's estimate before a reply calibrates it. */
const PER_CHAR = 0.25;

interface Request {
  readonly body: string;
  readonly wire: WireHistory;
  /** Tokens of each message as the proxy counts it (its characters and a separator). */
  readonly turnTokens: readonly number[];
  /** Tokens of the request outside its messages (model, system, tools, settings). */
  readonly fixedTokens: number;
}

function request(body: string): Request {
  const outcome = readAnthropicRequest(body, parseJsonSpans(body));
  if (outcome.kind !== 'history') throw new Error('not read');
  const { wire } = outcome;
  const spans = wire.messageSpans;
  const inMessages = (spans.at(-1)?.end ?? 0) - (spans[0]?.start ?? 0);
  return {
    body,
    wire,
    turnTokens: spans.map((span) => (span.end - span.start + 1) * PER_CHAR),
    fixedTokens: (body.length - inMessages) * PER_CHAR,
  };
}

/** The proxy's decision on `req` (no density edits), with the conversation's `state`. */
function proxyDecision(req: Request, state: BudgetState, risk?: EarlyCompactionRisk) {
  const root = parseJsonSpans(req.body);
  const outcome: CompactOutcome = compactWire({
    original: req.body,
    wire: req.wire,
    layout: () => compactionLayout('anthropic', req.wire, root),
    sent: (from, to) => [req.body.slice(from, to)],
    edits: { sentChars: req.body.length, within: () => [] },
    model: 'claude-sonnet-4-6',
    state,
    budgetTokens: BUDGET,
    longContext: false,
    ...(risk === undefined ? {} : { earlyRisk: risk }),
    readOnly: false,
  });
  if (outcome.kind !== 'compacted') return { kind: outcome.kind };
  const sent = JSON.parse(outcome.parts.join('')) as {
    messages: { content: { text: string }[] }[];
  };
  return { kind: outcome.kind, cut: outcome.cut, summary: sent.messages[0]?.content[0]?.text };
}

/**
 * The CLI strategy's decision on `history`, each entry counted as the proxy counts the message it
 * is (`sizes`), the tokens outside the turns standing as the message about to be added.
 */
async function cliDecision(input: {
  readonly history: readonly IContent[];
  readonly sizes: ReadonlyMap<IContent, number>;
  readonly fixedTokens: number;
  readonly risk?: EarlyCompactionRisk;
}): Promise<CompressionResult> {
  const base = await makeCompressionContext({
    history: input.history,
    settings: { 'context-limit': 200_000, 'compression.density.workingBudget': BUDGET },
  });
  let current = 0;
  for (const entry of input.history) current += input.sizes.get(entry) ?? 0;
  return new HighDensityStrategy().compress({
    ...base,
    estimateTokens: (contents) =>
      Promise.resolve(contents.reduce((sum, entry) => sum + (input.sizes.get(entry) ?? 0), 0)),
    currentTokenCount: current,
    pendingTokens: input.fixedTokens,
    ...(input.risk === undefined ? {} : { earlyCompactionRisk: input.risk }),
  });
}

function sizesOf(req: Request): Map<IContent, number> {
  return new Map(req.wire.history.map((entry, i) => [entry, req.turnTokens[i] ?? 0]));
}

/** The CLI's decision on the history a request carries, each entry its size there. */
function cliDecisionOn(req: Request, risk?: EarlyCompactionRisk): Promise<CompressionResult> {
  return cliDecision({
    history: req.wire.history,
    sizes: sizesOf(req),
    fixedTokens: req.fixedTokens,
    ...(risk === undefined ? {} : { risk }),
  });
}

/**
 * The CLI's history after its first compaction, grown to `second`'s turns (its summary, the turns
 * it kept, the new ones), each turn sized as the proxy counts it in `second`; the turns the summary
 * stands for keep their entries, so the plan sees the originals.
 */
function grownHistory(input: {
  readonly first: Request;
  readonly second: Request;
  readonly compacted: readonly IContent[];
  readonly cut: number;
}): { history: IContent[]; sizes: Map<IContent, number> } {
  const { first, second, cut } = input;
  const history = [...input.compacted, ...second.wire.history.slice(first.wire.history.length)];
  const sizes = sizesOf(second);
  second.wire.history.forEach((_, i) => {
    const entry = i < cut ? first.wire.history[i] : history[i - cut + 1];
    if (entry !== undefined) sizes.set(entry, second.turnTokens[i] ?? 0);
  });
  return { history, sizes };
}

const summaryText = (entry: IContent | undefined): string =>
  entry?.blocks[0]?.type === 'text' ? entry.blocks[0].text : '';

/** The summary with the id of the removed messages' raw text (its first recall id) blanked. */
const withoutMessagesId = (text: string): string =>
  text.replace(/dense recall r[0-9a-f]{10} --grep/, 'dense recall <messages> --grep');

describe('#35.1 the working budget: one decision for the proxy and the CLI', () => {
  it('#35.1 the shared decision over the same turns and sizes: the same cut and the same summary bytes as compactWire', () => {
    const req = request(longSessionBody(30, 4_000));
    const proxy = proxyDecision(req, { compaction: undefined, promptTokensPerChar: undefined });
    expect(proxy.kind).toBe('compacted');
    const spans = req.wire.messageSpans;
    const shared = planHistoryCompaction({
      turns: req.wire.history,
      turnTokens: req.turnTokens,
      fixedTokens: req.fixedTokens,
      budgetTokens: BUDGET,
      previousCut: 0,
      // The removed messages' raw text as the proxy's archive keeps it.
      rawOf: (cut) => req.body.slice(spans[0]?.start ?? 0, spans[cut - 1]?.end ?? 0),
    });
    if (shared.kind !== 'compact') throw new Error(`kept: ${shared.reason}`);
    expect(shared.cut).toBe(proxy.cut);
    expect(shared.summary.text).toBe(proxy.summary);
  });

  it('#35.1 the CLI high-density strategy with the same budget cuts at the same turn and writes the same summary', async () => {
    const req = request(longSessionBody(30, 4_000));
    const proxy = proxyDecision(req, { compaction: undefined, promptTokensPerChar: undefined });
    const result = await cliDecisionOn(req);
    if (result.kind !== 'applied') throw new Error(`noop: ${result.reason}`);
    const cut = proxy.cut ?? 0;
    expect(cut).toBeGreaterThan(0);
    // One summary entry, then the turns from the cut on, unchanged.
    expect(result.newHistory.slice(1)).toEqual(req.wire.history.slice(cut));
    expect(result.metadata.carriesTrail).toBe(true);
    const summary = summaryText(result.newHistory[0]);
    expect(withoutMessagesId(summary)).toBe(withoutMessagesId(proxy.summary ?? ''));
    expect(summary).not.toBe(proxy.summary);
  });

  it('#35.1 a second compaction extends the first on both sides: the same cut from the original turns, the same summary', async () => {
    const first = request(longSessionBody(30, 4_000));
    const second = request(longSessionBody(45, 4_000));
    const state: BudgetState = { compaction: undefined, promptTokensPerChar: undefined };
    const proxyFirst = proxyDecision(first, state);
    const proxySecond = proxyDecision(second, state);
    expect(proxySecond.kind).toBe('compacted');
    expect(proxySecond.cut ?? 0).toBeGreaterThan(proxyFirst.cut ?? 0);

    const sizes = sizesOf(first);
    const cliFirst = await cliDecision({
      history: first.wire.history,
      sizes,
      fixedTokens: first.fixedTokens,
    });
    if (cliFirst.kind !== 'applied') throw new Error('first kept');
    const summaryEntry = cliFirst.newHistory[0] as IContent;
    const { history, sizes: secondSizes } = grownHistory({
      first,
      second,
      compacted: cliFirst.newHistory,
      cut: proxyFirst.cut ?? 0,
    });
    secondSizes.set(summaryEntry, BUDGET);
    const cliSecond = await cliDecision({
      history,
      sizes: secondSizes,
      fixedTokens: second.fixedTokens,
    });
    if (cliSecond.kind !== 'applied') throw new Error('second kept');
    expect(cliSecond.newHistory.slice(1)).toEqual(second.wire.history.slice(proxySecond.cut ?? 0));
    expect(withoutMessagesId(summaryText(cliSecond.newHistory[0]))).toBe(
      withoutMessagesId(proxySecond.summary ?? ''),
    );
  });

  it('#35.1 an early compaction over the risk budget is kept out on both sides', async () => {
    // Between the early budget (85%) and the budget: only the risk budget decides.
    const req = request(longSessionBody(17, 4_000));
    const total = req.fixedTokens + req.turnTokens.reduce((a, b) => a + b, 0);
    expect(total).toBeGreaterThan(BUDGET * 0.85);
    expect(total).toBeLessThan(BUDGET);
    const broke: EarlyCompactionRisk = {
      riskTokens: () => 0,
      readMultiplier: 0.1,
      writeMultiplier: 1.25,
    };
    const fresh = (): BudgetState => ({ compaction: undefined, promptTokensPerChar: undefined });
    expect(proxyDecision(req, fresh(), broke).kind).toBe('none');
    const kept = await cliDecisionOn(req, broke);
    expect(kept.kind === 'applied' && kept.metadata.carriesTrail === true).toBe(false);
    // With room in the risk budget both compact, at the same turn.
    const rich: EarlyCompactionRisk = { ...broke, riskTokens: () => 1_000_000 };
    const proxy = proxyDecision(req, fresh(), rich);
    expect(proxy.kind).toBe('compacted');
    const cli = await cliDecisionOn(req, rich);
    if (cli.kind !== 'applied') throw new Error('kept');
    expect(cli.newHistory.slice(1)).toEqual(req.wire.history.slice(proxy.cut ?? 0));
  });

  it('#35.2 a compaction the newest turn held short is finished one reply later on both sides: the same cut, the same summary', async () => {
    const big = bigReadTurn();
    const reply = shortReplyTurn();
    const history = [...longSessionMessages(20, 2_000), ...big];
    const model = { model: 'claude-sonnet-4-6' };
    const first = request(anthropicBody(history, model));
    const second = request(anthropicBody([...history, ...reply], model));
    const rich: EarlyCompactionRisk = {
      riskTokens: () => 1_000_000,
      readMultiplier: 0.1,
      writeMultiplier: 1.25,
    };
    const state: BudgetState = { compaction: undefined, promptTokensPerChar: undefined };
    const proxyFirst = proxyDecision(first, state, rich);
    const proxySecond = proxyDecision(second, state, rich);
    expect(proxyFirst.cut).toBe(first.wire.history.length - 2);
    expect(proxySecond).toMatchObject({ kind: 'compacted', cut: second.wire.history.length - 2 });

    const cliFirst = await cliDecisionOn(first, rich);
    if (cliFirst.kind !== 'applied') throw new Error('first kept');
    const summaryEntry = cliFirst.newHistory[0] as IContent;
    const { history: grown, sizes } = grownHistory({
      first,
      second,
      compacted: cliFirst.newHistory,
      cut: proxyFirst.cut ?? 0,
    });
    // The summary as long as it is: the CLI's history is under the early budget.
    sizes.set(summaryEntry, summaryText(summaryEntry).length * PER_CHAR);
    const cliSecond = await cliDecision({
      history: grown,
      sizes,
      fixedTokens: second.fixedTokens,
      risk: rich,
    });
    if (cliSecond.kind !== 'applied') throw new Error('second kept');
    expect(cliSecond.newHistory.slice(1)).toEqual(second.wire.history.slice(proxySecond.cut ?? 0));
    expect(withoutMessagesId(summaryText(cliSecond.newHistory[0]))).toBe(
      withoutMessagesId(proxySecond.summary ?? ''),
    );
  });
});
