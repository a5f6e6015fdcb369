/**
 * A proxied request at the block level, for the one prefix model (`cache/cachePrefix.ts`): the
 * text outside the messages (tools, system) as one leading block, then each message's content
 * blocks; tokens estimated as characters / 4. Breakpoints: a `cache_control` inside a message
 * marks that message's end (clients put it on a message's last block), one outside the messages
 * marks the leading block. What the provider is taken to hold: the prefix at each breakpoint
 * before the newest message, and every earlier request's whole prompt (each ended just before an
 * assistant message); the schedule checks the TTL itself.
 */
import type { CachedPrefix, PromptLayout } from '../../cache/cachePrefix.js';
import { entryLayout } from '../../cache/cachePrefix.js';
import type { SegmentedText } from '../wire/segmentedText.js';
import type { WireHistory } from '../wire/wireHistory.js';

export interface WireCache {
  readonly layout: PromptLayout;
  /** Blocks before message `i` (the leading block included), for i ≤ the message count. */
  readonly blocksBeforeMessage: readonly number[];
  readonly held: readonly CachedPrefix[];
}

/** One message as the cache sees it. */
export interface WireMessageShape {
  readonly chars: number;
  readonly blocks: number;
  readonly assistant: boolean;
}

export interface WireShape {
  /** Characters outside the messages (tools, system, parameters). */
  readonly leadChars: number;
  readonly messages: readonly WireMessageShape[];
  /** Indices of the messages whose end carries a breakpoint. */
  readonly breakpointMessages: readonly number[];
  /** Whether a breakpoint sits outside the messages (on the tools or the system prompt). */
  readonly leadBreakpoint: boolean;
}

const CHARS_PER_TOKEN = 4;

/** Estimated tokens of `chars` characters. */
export function charTokens(chars: number): number {
  return Math.ceil(Math.max(0, chars) / CHARS_PER_TOKEN);
}

const CACHE_CONTROL = /"cache_control"\s*:/g;

/**
 * The shape of a parsed request: message spans and blocks, and where its breakpoints are. The
 * text as pieces is scanned piece by piece (a `cache_control` key never holds a `{`).
 */
export function wireShape(text: string | SegmentedText, wire: WireHistory): WireShape {
  const spans = wire.messageSpans;
  const messagesChars = spans.reduce((sum, span) => sum + (span.end - span.start), 0);
  const breakpointMessages: number[] = [];
  let leadBreakpoint = false;
  const offsets =
    typeof text === 'string'
      ? Array.from(text.matchAll(CACHE_CONTROL), (match) => match.index)
      : text.matchOffsets(CACHE_CONTROL);
  for (const offset of offsets) {
    const i = spans.findIndex((span) => span.start <= offset && offset < span.end);
    if (i < 0) leadBreakpoint = true;
    else breakpointMessages.push(i);
  }
  return {
    leadChars: text.length - messagesChars,
    messages: spans.map((span, i) => ({
      chars: span.end - span.start,
      blocks: Math.max(1, wire.history[i]?.blocks.length ?? 1),
      assistant: wire.history[i]?.speaker === 'ai',
    })),
    breakpointMessages,
    leadBreakpoint,
  };
}

/** The request's layout and what the provider holds from the requests before it. */
export function wireCache(shape: WireShape): WireCache {
  const entries = [
    { blocks: 1, tokens: shape.leadChars },
    ...shape.messages.map((m) => ({ blocks: m.blocks, tokens: m.chars })),
  ];
  const { layout: inChars, blocksBefore } = entryLayout(entries, {
    breakpointsAtEntries: [
      ...(shape.leadBreakpoint ? [1] : []),
      ...shape.breakpointMessages.map((i) => i + 2),
    ],
  });
  const layout: PromptLayout = {
    ...inChars,
    tokensBefore: (k) => charTokens(inChars.tokensBefore(k)),
    promptTokens: charTokens(inChars.tokensBefore(inChars.blocks)),
  };
  const newest = shape.messages.length; // entries before the newest message
  const prefixAt = (entriesBefore: number): CachedPrefix => {
    const blocks = blocksBefore[entriesBefore] ?? 0;
    return { blocks, tokens: layout.tokensBefore(blocks), lastUsedAt: undefined };
  };
  const held = [
    ...(shape.leadBreakpoint ? [prefixAt(1)] : []),
    ...shape.breakpointMessages.filter((i) => i + 2 < newest + 1).map((i) => prefixAt(i + 2)),
    ...shape.messages.flatMap((m, i) => (m.assistant ? [prefixAt(i + 1)] : [])),
  ];
  return { layout, blocksBeforeMessage: blocksBefore.slice(1), held };
}
