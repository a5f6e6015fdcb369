/**
 * What keeping some originals in one conversation writes, decided from the writer's account before
 * any file is touched: each piece's blob unless that content is already stored; for a text given in
 * pieces, one list of them after the longest stored list whose pieces it starts with (so a region
 * that grows by new messages writes only those and a short list); then each id's name record.
 */
import { createHash } from 'node:crypto';
import type { ArchiveIndex } from './ArchiveIndex.js';
import {
  blobName,
  childrenOf,
  encodeList,
  INLINE_CHARS,
  wholeCodePoints,
  type StoredPiece,
} from './archiveLayout.js';

/** One original to keep: its recall id and its exact text. */
export interface RecallEntry {
  readonly id: string;
  readonly text: string;
  /**
   * The same text in parts (`pieces.join('') === text`), e.g. a region's messages and the
   * separators between them: each part is stored once however many ids name it. Parts that do not
   * join to `text` are ignored.
   */
  readonly pieces?: readonly string[];
}

export interface PlannedList {
  readonly name: string;
  readonly bytes: Buffer;
  readonly children: readonly string[];
  /** `${pieces}:${hash}` of its whole piece sequence (base included). */
  readonly sequence: string;
}

export interface ArchiveWritePlan {
  /** Blobs not stored yet, by name. */
  readonly blobs: ReadonlyMap<string, Buffer>;
  /** Lists not stored yet, each after the lists it references. */
  readonly lists: readonly PlannedList[];
  /** Stored content the new names reference directly (its time is refreshed). */
  readonly reused: ReadonlySet<string>;
  /** Whole-sequence keys of lists already stored that these entries name whole. */
  readonly sequences: readonly (readonly [string, string])[];
  /** Each id and the blob or list it stands for, in entry order. */
  readonly names: readonly { readonly id: string; readonly root: string }[];
}

/** The parts to store `entry` as: its pieces when they are whole and join to its text. */
function partsOf(entry: RecallEntry): string[] {
  const { pieces } = entry;
  if (pieces === undefined || pieces.length < 2 || pieces.join('') !== entry.text) {
    return [entry.text];
  }
  const parts = wholeCodePoints(pieces).filter((piece) => piece !== '');
  return parts.length === 0 ? [entry.text] : parts;
}

interface Planning {
  readonly index: ArchiveIndex;
  readonly conversation: string;
  readonly blobs: Map<string, Buffer>;
  readonly lists: PlannedList[];
  readonly reused: Set<string>;
  readonly sequences: Map<string, string>;
}

function isKnown(planning: Planning, name: string): boolean {
  return (
    planning.index.node(planning.conversation, name) !== undefined ||
    planning.blobs.has(name) ||
    planning.lists.some((list) => list.name === name)
  );
}

/** The blob for `text`, planned unless stored; its name. */
function blobFor(planning: Planning, text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  const name = blobName(bytes);
  if (planning.index.node(planning.conversation, name) !== undefined) planning.reused.add(name);
  else planning.blobs.set(name, bytes);
  return name;
}

/** The longest stored list whose pieces `keys` start with, and the whole sequence's key. */
function longestBase(planning: Planning, keys: readonly string[]) {
  const known = new Map(planning.index.account(planning.conversation).sequences);
  for (const [key, name] of planning.sequences) known.set(key, name);
  const lengths = new Set([...known.keys()].map((key) => Number(key.slice(0, key.indexOf(':')))));
  const hash = createHash('sha256');
  let base: { length: number; name: string } | undefined;
  keys.forEach((key, at) => {
    hash.update(`${key}\n`);
    if (!lengths.has(at + 1)) return;
    const name = known.get(`${at + 1}:${hash.copy().digest('hex')}`);
    if (name !== undefined && isKnown(planning, name)) base = { length: at + 1, name };
  });
  return { base, sequence: `${keys.length}:${hash.digest('hex')}` };
}

function listFor(planning: Planning, parts: readonly string[]): string {
  const stored: StoredPiece[] = parts.map((part) =>
    part.length < INLINE_CHARS ? { t: part } : blobFor(planning, part),
  );
  const keys = stored.map((piece) =>
    typeof piece === 'string' ? piece : `t${JSON.stringify(piece.t)}`,
  );
  const { base, sequence } = longestBase(planning, keys);
  if (base?.length === keys.length) {
    planning.reused.add(base.name);
    return base.name;
  }
  const record = {
    ...(base === undefined ? {} : { base: base.name }),
    pieces: stored.slice(base?.length ?? 0),
  };
  const { name, bytes } = encodeList(record);
  if (base !== undefined) planning.reused.add(base.name);
  planning.sequences.set(sequence, name);
  if (planning.index.node(planning.conversation, name) !== undefined) planning.reused.add(name);
  else if (!isKnown(planning, name)) {
    planning.lists.push({ name, bytes, children: childrenOf(record), sequence });
  }
  return name;
}

export function planArchiveWrite(
  index: ArchiveIndex,
  conversation: string,
  entries: readonly RecallEntry[],
): ArchiveWritePlan {
  const planning: Planning = {
    index,
    conversation,
    blobs: new Map(),
    lists: [],
    reused: new Set(),
    sequences: new Map(),
  };
  // An id given twice stands for its last text.
  const roots = new Map<string, string>();
  for (const entry of entries) {
    const parts = partsOf(entry);
    const root = parts.length === 1 ? blobFor(planning, entry.text) : listFor(planning, parts);
    roots.delete(entry.id);
    roots.set(entry.id, root);
  }
  const names = [...roots].map(([id, root]) => ({ id, root }));
  const sequences = [...planning.sequences].filter(
    ([, name]) => !planning.lists.some((list) => list.name === name),
  );
  return { ...planning, sequences, names };
}
