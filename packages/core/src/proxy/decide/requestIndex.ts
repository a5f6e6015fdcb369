/**
 * A request's results and calls by call id, read for the replies at entry: which result a reply
 * may name (one client call, one result, earlier, not replaced in this request) and the history
 * before a result as it is sent. Built lazily: most requests never ask.
 */
import type {
  ContentBlock,
  IContent,
  ToolCallBlock,
  ToolResponseBlock,
} from '../../services/history/IContent.js';
import { before, parsePosition, positionOf } from './entryReplyDecisions.js';
import type { ResultSite, WireHistory } from '../wire/wireHistory.js';

/** The request's calls and results by call id, and which results are replaced so far. */
export interface RequestIndex {
  readonly wire: WireHistory;
  readonly sitesByCall: Map<string, ResultSite[]>;
  readonly calls: Map<string, ToolCallBlock[]>;
  /** Call ids of client calls read as several calls (a patch of several files, an exec script). */
  readonly split: Set<string>;
  /** Positions (`positionOf`) of the results replaced in this request so far. */
  readonly replaced: Set<string>;
}

export function responseAt(wire: WireHistory, site: ResultSite): ToolResponseBlock | undefined {
  const block = wire.history[site.messageIndex]?.blocks[site.blockIndex];
  return block?.type === 'tool_response' ? block : undefined;
}

function callTables(wire: WireHistory): Omit<RequestIndex, 'wire' | 'replaced'> {
  const sitesByCall = new Map<string, ResultSite[]>();
  const push = <T>(map: Map<string, T[]>, key: string, value: T) => {
    const list = map.get(key);
    if (list === undefined) map.set(key, [value]);
    else list.push(value);
  };
  for (const site of wire.sites) push(sitesByCall, site.callId, site);
  const calls = new Map<string, ToolCallBlock[]>();
  const split = new Set<string>();
  for (const entry of wire.history)
    for (const block of entry.blocks) {
      if (block.type !== 'tool_call') continue;
      push(calls, block.id, block);
      const hash = block.id.indexOf('#');
      if (hash >= 0) split.add(block.id.slice(0, hash));
    }
  return { sitesByCall, calls, split };
}

/** The index of `wire`; its call tables are built when first asked for (most requests never do). */
export function indexRequest(wire: WireHistory, edited: readonly ResultSite[]): RequestIndex {
  let tables: ReturnType<typeof callTables> | undefined;
  const built = () => (tables ??= callTables(wire));
  return {
    wire,
    replaced: new Set(edited.map(positionOf)),
    get sitesByCall() {
      return built().sitesByCall;
    },
    get calls() {
      return built().calls;
    },
    get split() {
      return built().split;
    },
  };
}

/** Whether `callId` names one client call, read as one call, in the request. */
export function namesOneCall(index: RequestIndex, callId: string): boolean {
  return index.calls.get(callId)?.length === 1 && !index.split.has(callId);
}

/**
 * The site and text of the result of call `callId` when it is visible as sent before `at`:
 * the id names one client call read as one call, and one result, not failed and not replaced in
 * this request.
 */
export function visibleResult(
  index: RequestIndex,
  callId: string,
  at: ResultSite,
): { readonly site: ResultSite; readonly text: string } | undefined {
  const sites = index.sitesByCall.get(callId);
  if (sites?.length !== 1 || !namesOneCall(index, callId)) return undefined;
  const site = sites[0] as ResultSite;
  if (!before(site, at) || index.replaced.has(positionOf(site))) return undefined;
  const block = responseAt(index.wire, site);
  if (block === undefined || block.error !== undefined || typeof block.result !== 'string')
    return undefined;
  return { site, text: block.result };
}

/** The site of the result of call `callId` when it is visible verbatim with `text` before `at`. */
export function visibleReferent(
  index: RequestIndex,
  callId: string,
  text: string,
  at: ResultSite,
): ResultSite | undefined {
  const visible = visibleResult(index, callId, at);
  return visible?.text === text ? visible.site : undefined;
}

/** A response as the decision sees a replaced one: no longer the text it had. */
const replacedBlock = (block: ContentBlock): ContentBlock =>
  block.type === 'tool_response' ? { ...block, result: '', error: 'replaced' } : block;

/** The history before `site` as sent: results replaced in this request show no text. */
export function historyBefore(index: RequestIndex, site: ResultSite): IContent[] {
  const replacedIn = new Map<number, Set<number>>();
  for (const position of index.replaced) {
    const { messageIndex, blockIndex } = parsePosition(position);
    replacedIn.set(messageIndex, (replacedIn.get(messageIndex) ?? new Set()).add(blockIndex));
  }
  const view = (entry: IContent, message: number, upTo: number): IContent => {
    const replaced = replacedIn.get(message);
    if (replaced === undefined && upTo === entry.blocks.length) return entry;
    const blocks = entry.blocks.slice(0, upTo);
    return replaced === undefined
      ? { ...entry, blocks }
      : { ...entry, blocks: blocks.map((b, i) => (replaced.has(i) ? replacedBlock(b) : b)) };
  };
  const history = index.wire.history;
  // Only the entries holding a replaced result, and the current one, are copied.
  const before = history.slice(0, site.messageIndex);
  for (const message of replacedIn.keys()) {
    const entry = before[message];
    if (entry !== undefined) before[message] = view(entry, message, entry.blocks.length);
  }
  const current = history[site.messageIndex];
  if (current !== undefined) before.push(view(current, site.messageIndex, site.blockIndex));
  return before;
}

/** The newest call answered by the result at `site` (its uniqueness is checked after). */
export function callBefore(wire: WireHistory, site: ResultSite): ToolCallBlock | undefined {
  for (let m = site.messageIndex; m >= 0; m--) {
    const blocks = wire.history[m]?.blocks ?? [];
    for (let b = blocks.length - 1; b >= 0; b--) {
      const block = blocks[b];
      if (block?.type === 'tool_call' && block.id === site.callId) return block;
    }
  }
  return undefined;
}
