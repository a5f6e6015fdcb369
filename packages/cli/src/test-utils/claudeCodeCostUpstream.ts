/**
 * A loopback Anthropic Messages upstream that scripts a Claude Code session step by step (each
 * step one tool call: Read, Edit, Bash …, then a final answer) and bills every request like
 * Anthropic's prompt cache: the request's real content blocks and `cache_control` breakpoints go
 * through core's one cache model (`PromptCache` → `cachePrefix`, 5-minute rules), and the split
 * (base-price input, cache writes, cache reads) is the usage the SSE stream reports, so the
 * client's own compaction decision sees what a real API would report.
 *
 * Time is the injected `clock`, advanced after each scripted reply by the step's `advanceMs`:
 * give the proxy the same clock and both see the same gaps, whatever the wall time. The next step
 * is the one after the highest step whose result any request so far held, so the script survives
 * a history rewritten by the proxy or by the client's compaction.
 */
import { cacheRulesFor } from '@dense/core';
import { anthropicPromptBlocks, PromptCache, type PromptBill } from '@dense/core/test-utils';
import {
  highestStepDone,
  isCompaction,
  offersRead,
  streamReply,
  type Block,
} from './claudeCodeWire.js';
import { parseBody, sendJson, startLoopbackUpstream, type Json } from './loopbackUpstream.js';

/** One scripted model turn: a tool call, and how far the clock moves before the next request. */
export interface CostStep {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly advanceMs: number;
}

export interface CostSession {
  readonly steps: readonly CostStep[];
  readonly answer: string;
  readonly clock: FakeClock;
}

export interface FakeClock {
  now(): number;
  advance(ms: number): void;
}

export function fakeClock(start: number): FakeClock {
  let at = start;
  return {
    now: () => at,
    advance: (ms) => {
      at += ms;
    },
  };
}

export type RequestKind = 'main' | 'compaction' | 'side';

export interface BilledCall extends PromptBill {
  readonly kind: RequestKind;
  readonly at: number;
  /** The step this request was answered with (-1: the final answer or not a main request). */
  readonly step: number;
}

export interface CostUpstream {
  readonly url: string;
  readonly calls: readonly BilledCall[];
  /** Sum of `weighted` over every request: the session's prompt cost in base-input-token units. */
  cost(): number;
  close(): Promise<void>;
}

export const COST_STEP_ID = 'toolu_dense_cost_';

/** Characters / 4, the same count on both sides of a comparison. */
const countTokens = (text: string): number => Math.ceil(text.length / 4);

function kindOf(body: Json): RequestKind {
  if (!offersRead(body)) return 'side';
  return isCompaction(body) ? 'compaction' : 'main';
}

/**
 * The model's summary when the client compacts: as long as Claude Code's own (9–17k characters in
 * the recorded sessions; 13,000 is their middle), so the direct side holds what it really would.
 */
const COMPACTION_SUMMARY = `<analysis>mock</analysis>\n\n<summary>${'Mock summary: reading, editing and testing the modules. '.repeat(232)}</summary>`;

export async function startCostUpstream(session: CostSession): Promise<CostUpstream> {
  const rules = cacheRulesFor('anthropic');
  // Claude Code's compaction request has the main requests' system, tools and messages (its
  // cached prefix is theirs); side requests have their own system prompt.
  const thread = new PromptCache(rules);
  const caches: Record<RequestKind, PromptCache> = {
    main: thread,
    compaction: thread,
    side: new PromptCache(rules),
  };
  const calls: BilledCall[] = [];
  let done = -1;

  function answer(body: Json): { block: Block; step: number; bill: PromptBill } {
    const kind = kindOf(body);
    const bill = caches[kind].bill(anthropicPromptBlocks(body, countTokens), session.clock.now());
    if (kind !== 'main') {
      const text = kind === 'compaction' ? COMPACTION_SUMMARY : 'Side reply';
      calls.push({ ...bill, kind, at: session.clock.now(), step: -1 });
      return { block: { type: 'text', text }, step: -1, bill };
    }
    done = Math.max(done, highestStepDone(body, COST_STEP_ID));
    const index = done + 1;
    const step = session.steps[index];
    calls.push({ ...bill, kind, at: session.clock.now(), step: step ? index : -1 });
    if (step === undefined)
      return { block: { type: 'text', text: session.answer }, step: -1, bill };
    const id = `${COST_STEP_ID}${index}`;
    return {
      block: { type: 'tool_use', id, name: step.name, input: step.input },
      step: index,
      bill,
    };
  }

  const server = await startLoopbackUpstream(({ url, raw }, response) => {
    if (url.startsWith('/v1/messages/count_tokens')) {
      sendJson(response, 200, { input_tokens: countTokens(raw) });
      return;
    }
    // Not JSON: billed and answered like a side request.
    const body = parseBody(raw);
    const { block, step, bill } = answer(body);
    streamReply(response, body.model, block, {
      input_tokens: bill.uncachedTokens,
      cache_creation_input_tokens: bill.cacheWriteTokens,
      cache_read_input_tokens: bill.cacheReadTokens,
    });
    const advance = session.steps[step]?.advanceMs;
    if (advance !== undefined) session.clock.advance(advance);
  });
  return {
    ...server,
    calls,
    cost: () => calls.reduce((sum, call) => sum + call.weighted, 0),
  };
}
