/**
 * The last step before a send is refused at the hard limit, after density and the strategy's own
 * compression: makes room without an LLM, whatever the strategy. In this order, stopping as soon
 * as the history fits `room`:
 *   1. every tool output over the size cap is cut to it (the whole output stays recallable);
 *   2. the oldest entries are dropped — the fewest that make it fit, up to the next human message
 *      when there is one, never a call without its responses, never the newest `keepNewest`;
 *   3. the outputs still in the history are cut to ever smaller caps (halving, down to
 *      `MIN_CAP_TOKENS`).
 * `planEmergencyRoom` decides on a copy; `escalateAtHardLimit` rewrites the history once.
 */
import type { ContentBlock, IContent, ToolResponseBlock } from '../services/history/IContent.js';
import { settleReplies } from './compression/density/optimize/settleReplies.js';
import type { HistoryService } from '../services/history/HistoryService.js';
import {
  findKeptOriginal,
  recallIdOfKept,
  withKeptOriginals,
  type KeptOriginal,
} from '../services/recall/keptOriginals.js';
import { capToolOutput, recallIdNamedByNotice } from './capToolOutput.js';
import { planTopDownTruncation } from './compression/planTopDownTruncation.js';
import { safeSplitPoints } from './compression/toolCallBoundary.js';

/** The smallest cap step 3 cuts outputs to: a few lines around the notice. */
export const MIN_CAP_TOKENS = 32;

export interface EmergencyRoomInput {
  /** The curated history. */
  readonly entries: readonly IContent[];
  /** Tokens the history may take: limit less the reply reserve and the pending message. */
  readonly room: number;
  /** The size cap on one tool output, in tokens. */
  readonly capTokens: number;
  /** Newest entries never dropped (mid-turn: the last call and its responses stay). */
  readonly keepNewest: number;
  /** Token count of entries with the session's counter (cached per entry). May throw. */
  readonly countEntries: (entries: readonly IContent[]) => Promise<number>;
}

/** `rewrite`: use `entries` (`fits` says whether they fit `room`); `unchanged`: nothing to do. */
export type EmergencyRoomPlan =
  | {
      readonly kind: 'rewrite';
      readonly entries: readonly IContent[];
      readonly fits: boolean;
      readonly tokens: number;
      /** Tool outputs cut (counted once per output, however often it was cut). */
      readonly outputsCapped: number;
      readonly entriesDropped: number;
    }
  | { readonly kind: 'unchanged'; readonly tokens: number };

/** What the emergency step did to a history over the hard limit. */
export interface EmergencyRoomEvent {
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** Tokens the history may take for the send to fit. */
  readonly room: number;
  readonly outputsCapped: number;
  readonly entriesDropped: number;
  readonly fits: boolean;
  readonly promptId: string;
  /** What happened, for the user. */
  readonly message: string;
}

function emergencyMessage(event: Omit<EmergencyRoomEvent, 'message'>): string {
  const did = [
    ...(event.outputsCapped > 0
      ? [
          `cut ${event.outputsCapped} tool output(s) to their first and last lines (recall returns them whole)`,
        ]
      : []),
    ...(event.entriesDropped > 0 ? [`dropped the ${event.entriesDropped} oldest entries`] : []),
  ].join(' and ');
  const outcome = event.fits
    ? 'the request fits now'
    : 'the request still does not fit: shorten the message or raise context-limit';
  return `Context over the hard limit after compression (${event.tokensBefore} tokens): ${did}, ${event.tokensAfter} tokens left; ${outcome}.`;
}

const textEntry = (text: string): IContent => ({
  speaker: 'tool',
  blocks: [{ type: 'text', text }],
});

/** The original of a block the entry already shows shortened, found by the recall id it names. */
function originalFor(entry: IContent, block: ToolResponseBlock): KeptOriginal | undefined {
  const shown = `${typeof block.result === 'string' ? block.result : ''}\n${block.error ?? ''}`;
  const id = recallIdNamedByNotice(shown);
  if (id === undefined) return undefined;
  const kept = findKeptOriginal(entry, id);
  return kept?.callId === block.callId && kept.toolName === block.toolName ? kept : undefined;
}

/** Cuts every output in `entry` over `capTokens`; the same entry when none is. */
async function capEntry(
  entry: IContent,
  capTokens: number,
  countEntries: EmergencyRoomInput['countEntries'],
): Promise<{ readonly entry: IContent; readonly capped: ReadonlySet<string> }> {
  if (entry.speaker !== 'tool') return { entry, capped: new Set() };
  const countTokens = (text: string) => countEntries([textEntry(text)]);
  const originals: KeptOriginal[] = [];
  const capped = new Set<string>();
  const blocks: ContentBlock[] = [];
  for (const block of entry.blocks) {
    if (block.type !== 'tool_response') {
      blocks.push(block);
      continue;
    }
    const original = originalFor(entry, block);
    const outcome = await capToolOutput({
      block,
      capTokens,
      countTokens,
      ...(original === undefined ? {} : { original }),
    });
    if (outcome.kind === 'within-cap') {
      blocks.push(block);
      continue;
    }
    blocks.push(outcome.block);
    originals.push(outcome.original);
    capped.add(recallIdOfKept(outcome.original));
  }
  if (originals.length === 0) return { entry, capped };
  const metadata = withKeptOriginals(entry.metadata, originals);
  return { entry: { ...entry, blocks, ...(metadata === undefined ? {} : { metadata }) }, capped };
}

async function capAll(
  entries: readonly IContent[],
  capTokens: number,
  countEntries: EmergencyRoomInput['countEntries'],
  capped: Set<string>,
): Promise<IContent[]> {
  const result: IContent[] = [];
  for (const entry of entries) {
    const next = await capEntry(entry, capTokens, countEntries);
    for (const key of next.capped) capped.add(key);
    result.push(next.entry);
  }
  return result;
}

/**
 * Drops the fewest oldest entries that make `entries` fit `room` (or as many as allowed), moved
 * on to the next human message when one is left, so the history starts with a whole turn.
 */
async function dropOldest(
  entries: readonly IContent[],
  input: EmergencyRoomInput,
): Promise<IContent[]> {
  const entryTokens: number[] = [];
  for (const entry of entries) entryTokens.push(await input.countEntries([entry]));
  const plan = planTopDownTruncation({
    history: entries,
    entryTokens,
    targetTokens: input.room,
    minKeep: input.keepNewest,
  });
  if (plan.kind !== 'drop') return [...entries];
  const safe = safeSplitPoints(entries);
  const last = entries.length - input.keepNewest;
  let cut = plan.dropCount;
  for (let j = cut; j < last; j++) {
    if (entries[j]?.speaker === 'human' && safe[j]) {
      cut = j;
      break;
    }
  }
  return entries.slice(cut);
}

/**
 * Plans the room (see the module comment). Deterministic for a given history, room and counter.
 * Errors from `countEntries` propagate.
 */
export async function planEmergencyRoom(input: EmergencyRoomInput): Promise<EmergencyRoomPlan> {
  const { room, countEntries } = input;
  const before = await countEntries(input.entries);
  if (before <= room) return { kind: 'unchanged', tokens: before };
  const capped = new Set<string>();
  let entries = await capAll(input.entries, input.capTokens, countEntries, capped);
  let tokens = await countEntries(entries);
  let dropped = 0;
  if (tokens > room) {
    const kept = await dropOldest(entries, input);
    dropped = entries.length - kept.length;
    // A reply whose named output was dropped or cut is put back (and may be cut below).
    entries = [...settleReplies(kept)];
    tokens = await countEntries(entries);
  }
  for (let cap = Math.floor(input.capTokens / 2); tokens > room && cap >= MIN_CAP_TOKENS;) {
    entries = await capAll([...settleReplies(entries)], cap, countEntries, capped);
    tokens = await countEntries(entries);
    cap = Math.floor(cap / 2);
  }
  entries = [...settleReplies(entries)];
  tokens = await countEntries(entries);
  const changed = dropped > 0 || entries.some((entry, i) => entry !== input.entries[i]);
  if (!changed) return { kind: 'unchanged', tokens };
  return {
    kind: 'rewrite',
    entries,
    fits: tokens <= room,
    tokens,
    outputsCapped: capped.size,
    entriesDropped: dropped,
  };
}

export interface EscalateAtHardLimitInput {
  readonly history: HistoryService;
  /** Tokens the history may take: limit less the reply reserve and the pending message. */
  readonly room: number;
  /** The most tokens one tool output may keep (`toolOutputCapTokens`). */
  readonly capTokens: number;
  /** The message about to be added; 0 mid-turn, where the last call keeps its responses. */
  readonly pendingTokens: number;
  readonly promptId: string;
  /**
   * What a drop must give back: the new history from the history before and the planned one
   * (the user's dropped messages, pinned). Applied only when entries were dropped.
   */
  readonly keep?: (before: readonly IContent[], after: readonly IContent[]) => IContent[];
}

/** Times a plan is made again with less room, so what `keep` gives back fits beside it. */
const KEEP_ATTEMPTS = 3;

type RewritePlan = Extract<EmergencyRoomPlan, { kind: 'rewrite' }>;

/**
 * The planned entries with what `keep` gives back after a drop. When that does not fit, the room
 * is planned again less what `keep` adds (the user's words outrank older entries), a few times;
 * when it still does not fit, the plan as it is (the send would be refused otherwise).
 */
async function withKept(
  input: EscalateAtHardLimitInput,
  first: RewritePlan,
  replan: (room: number) => Promise<EmergencyRoomPlan>,
): Promise<{ readonly entries: readonly IContent[]; readonly plan: RewritePlan }> {
  const { keep, history, room } = input;
  let plan = first;
  for (let attempt = 0; attempt < KEEP_ATTEMPTS; attempt++) {
    if (plan.entriesDropped === 0 || keep === undefined) break;
    const kept = keep(history.getCurated(), plan.entries);
    const tokens = await history.estimateTokensForContents(kept);
    if (tokens <= room) return { entries: kept, plan };
    const next = await replan(room - (tokens - plan.tokens));
    if (next.kind !== 'rewrite' || !next.fits) break;
    plan = next;
  }
  return { entries: first.entries, plan: first };
}

/**
 * Plans the room on the curated history and, when the plan changes it, replaces the history (as a
 * compression does) and settles its token count. Returns what it did, or `undefined` when nothing
 * could be changed. The history may still not fit: the event says so (`fits`), the caller refuses.
 */
export async function escalateAtHardLimit(
  input: EscalateAtHardLimitInput,
): Promise<EmergencyRoomEvent | undefined> {
  const { history, room } = input;
  const tokensBefore = history.getTotalTokens();
  const planFor = (roomTokens: number) =>
    planEmergencyRoom({
      entries: history.getCurated(),
      room: roomTokens,
      capTokens: input.capTokens,
      // Before a new message everything may go; mid-turn the last call stays with its responses.
      keepNewest: input.pendingTokens > 0 ? 0 : 1,
      countEntries: (entries) => history.estimateTokensForContents(entries),
    });
  const first = await planFor(room);
  if (first.kind === 'unchanged') return undefined;
  const { entries, plan } = await withKept(input, first, planFor);
  history.startCompression();
  try {
    history.replaceHistory(entries);
  } finally {
    history.endCompression();
  }
  await history.waitForTokenUpdates();
  const { outputsCapped, entriesDropped, fits } = plan;
  const tokensAfter = history.getTotalTokens();
  const event = {
    tokensBefore,
    tokensAfter,
    room,
    outputsCapped,
    entriesDropped,
    fits,
    promptId: input.promptId,
  };
  return { ...event, message: emergencyMessage(event) };
}
