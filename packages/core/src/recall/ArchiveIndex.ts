/**
 * A writer's account of the recall archive: per conversation, the ids named (each standing for a
 * blob or a list, or an original kept whole by an earlier version), the stored content with how
 * many names and lists reference it, and the bytes all of it takes. Content goes when nothing
 * references it any more, so removing an id frees exactly the bytes no other id needs. Pure: the
 * archive reads and writes the files and keeps this in step.
 */

import { setNewest } from '../utils/newestFirst.js';

/** One named id. `root` is the blob or list it stands for; absent: a whole original file. */
export interface NamedId {
  readonly conversation: string;
  readonly id: string;
  readonly root: string | undefined;
  /** Bytes it counts against the bounds: a whole original's; 0 for a name record. */
  readonly bytes: number;
  at: number;
}

interface StoredNode {
  readonly bytes: number;
  at: number;
  readonly children: readonly string[];
  refs: number;
}

export interface ConversationAccount {
  readonly names: Map<string, NamedId>;
  readonly nodes: Map<string, StoredNode>;
  /** Tombstones by id: when written. */
  readonly tombstones: Map<string, number>;
  /** Lists whose whole piece sequence is known, `${pieces}:${sequence hash}` → list name. */
  readonly sequences: Map<string, string>;
  bytes: number;
}

export type SweepReason = 'expired' | 'evicted';

export interface SweepInput {
  readonly now: number;
  readonly ttlMs: number;
  readonly maxConversationBytes: number;
  readonly maxTotalBytes: number;
  /** Ids that stay whatever the bounds (those the current write names). */
  readonly keep: (conversation: string, id: string) => boolean;
  /** Unreferenced content written before this goes (later: a write under way elsewhere). */
  readonly orphanBefore: number;
}

/** Content removed from the account: its file is to be deleted. */
export interface FreedNode {
  readonly conversation: string;
  readonly name: string;
  readonly at: number;
}

export interface SweepPlan {
  readonly removed: readonly (NamedId & { readonly reason: SweepReason })[];
  readonly freed: readonly FreedNode[];
}

/** Sequences remembered per conversation (the latest lists a longer region may extend). */
const SEQUENCES_KEPT = 32;

export class ArchiveIndex {
  readonly conversations = new Map<string, ConversationAccount>();
  total = 0;

  account(conversation: string): ConversationAccount {
    let found = this.conversations.get(conversation);
    if (found === undefined) {
      const empty = { names: new Map(), nodes: new Map(), tombstones: new Map() };
      found = { ...empty, sequences: new Map(), bytes: 0 };
      this.conversations.set(conversation, found);
    }
    return found;
  }

  node(conversation: string, name: string): StoredNode | undefined {
    return this.conversations.get(conversation)?.nodes.get(name);
  }

  name(conversation: string, id: string): NamedId | undefined {
    return this.conversations.get(conversation)?.names.get(id);
  }

  /** Adds stored content (nothing when it is known); references the children already known. */
  addNode(
    conversation: string,
    name: string,
    node: { bytes: number; at: number; children: readonly string[] },
  ): void {
    const own = this.account(conversation);
    if (own.nodes.has(name)) return;
    own.nodes.set(name, { ...node, refs: 0 });
    for (const child of node.children) {
      const known = own.nodes.get(child);
      if (known !== undefined) known.refs += 1;
    }
    this.grow(own, node.bytes);
  }

  /** Recounts every reference (after content and names were added in any order). */
  link(): void {
    for (const own of this.conversations.values()) {
      for (const node of own.nodes.values()) node.refs = 0;
      const reference = (name: string | undefined) => {
        const node = name === undefined ? undefined : own.nodes.get(name);
        if (node !== undefined) node.refs += 1;
      };
      for (const node of own.nodes.values()) node.children.forEach(reference);
      for (const named of own.names.values()) reference(named.root);
    }
  }

  /**
   * Names `id` (replacing what it stood for before, which may free content). With `linked: false`
   * (a scan) its root is counted by `link()` instead.
   */
  setName(named: NamedId, linked = true): FreedNode[] {
    const own = this.account(named.conversation);
    const freed = this.dropName(own, named.conversation, named.id);
    own.names.set(named.id, named);
    own.tombstones.delete(named.id);
    this.grow(own, named.bytes);
    const root = named.root === undefined ? undefined : own.nodes.get(named.root);
    if (linked && root !== undefined) root.refs += 1;
    return freed;
  }

  /**
   * References `roots` for the span of one put: a name it sets that drops an old root never frees
   * content another name of the same put is about to take.
   */
  hold(conversation: string, roots: readonly string[]): void {
    const own = this.account(conversation);
    for (const root of roots) {
      const node = own.nodes.get(root);
      if (node !== undefined) node.refs += 1;
    }
  }

  /** Drops the references `hold` took; returns the content that frees. */
  unhold(conversation: string, roots: readonly string[]): FreedNode[] {
    const own = this.account(conversation);
    const freed: FreedNode[] = [];
    for (const root of roots) {
      const node = own.nodes.get(root);
      if (node === undefined) continue;
      node.refs -= 1;
      if (node.refs <= 0) freed.push(...this.release(own, conversation, root));
    }
    return freed;
  }

  /** Removes a name (a tombstone stands for it from `at`); returns the content it freed. */
  removeName(conversation: string, id: string, at: number): FreedNode[] {
    const own = this.account(conversation);
    const freed = this.dropName(own, conversation, id);
    own.tombstones.set(id, at);
    return freed;
  }

  /** Removes expired ids, then the oldest past either bound, then unreferenced content. */
  sweep(input: SweepInput): SweepPlan {
    const removed: (NamedId & { reason: SweepReason })[] = [];
    const freed: FreedNode[] = [];
    const all = [...this.conversations.values()].flatMap((own) => [...own.names.values()]);
    all.sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
    for (const named of all) {
      if (input.keep(named.conversation, named.id)) continue;
      const own = this.account(named.conversation);
      let reason: SweepReason | undefined;
      if (input.now - named.at > input.ttlMs) reason = 'expired';
      else if (own.bytes > input.maxConversationBytes || this.total > input.maxTotalBytes)
        reason = 'evicted';
      if (reason === undefined) continue;
      freed.push(...this.removeName(named.conversation, named.id, input.now));
      removed.push({ ...named, reason });
    }
    for (const [conversation, own] of this.conversations) {
      for (const [name, node] of own.nodes) {
        if (node.refs > 0 || node.at >= input.orphanBefore) continue;
        freed.push(...this.release(own, conversation, name));
      }
    }
    return { removed, freed };
  }

  /** Remembers that list `name` holds a piece sequence of `length` pieces hashing to `hash`. */
  rememberSequence(conversation: string, key: string, name: string): void {
    const { sequences } = this.account(conversation);
    setNewest(sequences, key, name, SEQUENCES_KEPT);
  }

  private grow(own: ConversationAccount, bytes: number): void {
    own.bytes += bytes;
    this.total += bytes;
  }

  private dropName(own: ConversationAccount, conversation: string, id: string): FreedNode[] {
    const before = own.names.get(id);
    if (before === undefined) return [];
    own.names.delete(id);
    this.grow(own, -before.bytes);
    const root = before.root === undefined ? undefined : own.nodes.get(before.root);
    if (root === undefined || before.root === undefined) return [];
    root.refs -= 1;
    return root.refs > 0 ? [] : this.release(own, conversation, before.root);
  }

  /** Removes `name` and whatever only it referenced. */
  private release(own: ConversationAccount, conversation: string, name: string): FreedNode[] {
    const freed: FreedNode[] = [];
    const pending = [name];
    for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
      const node = own.nodes.get(next);
      if (node === undefined || node.refs > 0) continue;
      own.nodes.delete(next);
      this.grow(own, -node.bytes);
      freed.push({ conversation, name: next, at: node.at });
      for (const child of node.children) {
        const inner = own.nodes.get(child);
        if (inner === undefined) continue;
        inner.refs -= 1;
        if (inner.refs <= 0) pending.push(child);
      }
    }
    const gone = new Set(freed.map((node) => node.name));
    for (const [key, list] of own.sequences) if (gone.has(list)) own.sequences.delete(key);
    return freed;
  }
}
