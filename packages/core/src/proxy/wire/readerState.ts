/**
 * What a request reader has built after reading a request's first `from` wire messages: the
 * decision history and result sites so far and its call lookup tables. A fresh state reads the
 * whole request; a state kept from an earlier request whose first `from` messages are known to be
 * byte-identical lets a reader read only the messages after them (`requestReadCache.ts`).
 */
import type { IContent } from '../../services/history/IContent.js';
import type { CanonicalRef, ExecCallFacts } from './canonicalTools.js';
import { JournaledMap } from './journaledMap.js';
import type { ResultSite } from './wireHistory.js';

export interface ReaderState {
  /** Index of the first wire message still to read. */
  readonly from: number;
  readonly history: IContent[];
  readonly sites: ResultSite[];
  /** Canonical calls per client call id (a multi-file patch has several). */
  readonly callIds: JournaledMap<string, CanonicalRef[]>;
  /** Understood Codex `exec` calls by call id. */
  readonly execCalls: JournaledMap<string, ExecCallFacts>;
  /** Each message's span in the request's text, for the messages read so far. */
  readonly spans: MessageSpan[];
}

export interface MessageSpan {
  readonly start: number;
  readonly end: number;
}

export function freshReaderState(): ReaderState {
  return {
    from: 0,
    history: [],
    sites: [],
    callIds: new JournaledMap(),
    execCalls: new JournaledMap(),
    spans: [],
  };
}

/**
 * The state before message `from`, taken from a state that read further: the lookup tables are
 * rewound in place (the earlier state must not be used again), history and sites are copied.
 */
export function rewindReaderState(state: ReaderState, from: number): ReaderState {
  state.callIds.rewindTo(from);
  state.execCalls.rewindTo(from);
  let sites = state.sites.length;
  while (sites > 0 && (state.sites[sites - 1] as ResultSite).messageIndex >= from) sites--;
  return {
    from,
    history: state.history.slice(0, from),
    sites: state.sites.slice(0, sites),
    callIds: state.callIds,
    execCalls: state.execCalls,
    spans: state.spans.slice(0, from),
  };
}

/**
 * The span of every message of `items` once all are read: the spans kept for the messages before
 * `from` (their bytes were verified, so their offsets are the same), new ones for the rest.
 */
export function messageSpans(
  state: ReaderState,
  items: readonly MessageSpan[],
): readonly MessageSpan[] {
  const { spans } = state;
  if (spans.length > items.length) spans.length = items.length;
  for (let index = spans.length; index < items.length; index++) {
    const { start, end } = items[index] as MessageSpan;
    spans.push({ start, end });
  }
  return spans;
}

/** Sets the message the lookup tables record changes under. */
export function startMessage(state: ReaderState, index: number): void {
  state.callIds.message = index;
  state.execCalls.message = index;
}

/** A string that does not point into the text it was sliced from. */
const own = (value: string): string => Buffer.from(value, 'utf8').toString('utf8');

/**
 * Sites read from message `from` on point into their request's text: their strings are copied so
 * a kept state does not keep that text.
 */
export function ownNewSites(state: ReaderState, from: number): void {
  const { sites } = state;
  for (let i = sites.length - 1; i >= 0; i--) {
    const site = sites[i] as ResultSite;
    if (site.messageIndex < from) break;
    if (site.cacheControlRaw !== undefined) {
      sites[i] = { ...site, cacheControlRaw: own(site.cacheControlRaw) };
    }
  }
}
