/**
 * Recall by reference: the port the `recall` tool reads originals through, and the
 * index both stores share. An id is a pure function of an original tool response or `@` inclusion
 * (see `recallPointers.ts`), so any store holding the original entries resolves it — the session
 * recording after a resume as well as the in-memory store of a session that is not recorded.
 */
import type { IContent } from '../history/IContent.js';
import { humanInclusions } from '../../core/compression/density/humanInclusions.js';
import {
  originalResponseText,
  recallIdOfInclusion,
  recallIdOfResponse,
} from '../../core/compression/recallPointers.js';
import { keptOriginalsOf, recallIdOfKept } from './keptOriginals.js';
import {
  HUGE_PASTE_CHARS,
  recallIdOfUserMessage,
  usersMessages,
} from '../../core/compression/pinnedUserMessages.js';

/** What a lookup found: the exact original text, or why there is none (said to the model). */
export type RecallLookup =
  | { readonly kind: 'found'; readonly content: string }
  | {
      readonly kind: 'unknown-id' | 'unavailable' | 'corrupt';
      readonly message: string;
    };

export interface RecallStore {
  /** Never throws: every failure is a lookup result the tool reports. */
  lookup(id: string): Promise<RecallLookup>;
}

/**
 * Visits every recallable original in `entry`: tool responses, outputs the entry keeps whole
 * beside a shortened copy, human `@` inclusions, and a user's message long enough that a pinned
 * copy of it is cut.
 */
export function forEachRecallable(
  entry: IContent,
  visit: (id: string, content: string) => void,
): void {
  for (const block of entry.blocks) {
    if (block.type === 'tool_response')
      visit(recallIdOfResponse(block), originalResponseText(block));
  }
  for (const kept of keptOriginalsOf(entry)) visit(recallIdOfKept(kept), kept.text);
  for (const { blockIndex, spans } of humanInclusions(entry)) {
    const block = entry.blocks[blockIndex];
    if (block?.type !== 'text') continue;
    for (const span of spans) {
      const text = block.text.slice(span.start, span.end);
      visit(recallIdOfInclusion(text), text);
    }
  }
  if (entry.speaker !== 'human') return;
  for (const words of usersMessages(entry)) {
    if (words.length > HUGE_PASTE_CHARS) visit(recallIdOfUserMessage(words), words);
  }
}

/** Originals by recall id, indexed as entries arrive. */
export class RecallIndex {
  private readonly byId = new Map<string, string>();

  add(entry: IContent): void {
    forEachRecallable(entry, (id, content) => {
      if (!this.byId.has(id)) this.byId.set(id, content);
    });
  }

  /** An original no entry holds (a summary's removed messages as one transcript), by its id. */
  put(id: string, content: string): void {
    if (!this.byId.has(id)) this.byId.set(id, content);
  }

  get(id: string): string | undefined {
    return this.byId.get(id);
  }

  get size(): number {
    return this.byId.size;
  }
}

export function unknownIdMessage(id: string): string {
  return `No original content has recall id ${JSON.stringify(id)} in this session. Recall ids look like r0123456789 and are named in pruned-result pointers and compression summary lines; copy one exactly.`;
}

/**
 * The store of a session that is not recorded: every entry the turn loop adds (and any history a
 * resume brought back) is kept and indexed lazily, on the first lookup after it arrived.
 */
export class InMemoryRecallStore implements RecallStore {
  private readonly index = new RecallIndex();
  private pending: IContent[] = [];

  record(entry: IContent): void {
    this.pending.push(entry);
  }

  /** Originals no entry holds, by id (a compaction's `metadata.recall`). */
  remember(originals: readonly { readonly id: string; readonly text: string }[]): void {
    for (const original of originals) this.index.put(original.id, original.text);
  }

  lookup(id: string): Promise<RecallLookup> {
    for (const entry of this.pending) this.index.add(entry);
    this.pending = [];
    const content = this.index.get(id);
    return Promise.resolve(
      content === undefined
        ? { kind: 'unknown-id', message: unknownIdMessage(id) }
        : { kind: 'found', content },
    );
  }
}

/** Asks `primary` first, then `fallback`; when neither has the id, `primary`'s answer stands. */
export class FallbackRecallStore implements RecallStore {
  constructor(
    private readonly primary: RecallStore,
    private readonly fallback: RecallStore,
  ) {}

  async lookup(id: string): Promise<RecallLookup> {
    const first = await this.primary.lookup(id);
    if (first.kind === 'found') return first;
    const second = await this.fallback.lookup(id);
    return second.kind === 'found' ? second : first;
  }
}
