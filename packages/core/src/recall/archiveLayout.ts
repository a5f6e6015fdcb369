/**
 * What the recall archive's files are, inside one conversation's directory, and how an id's text is
 * put back together from them. Content is stored once, by its hash: a *blob* (`<hash>`) holds one
 * piece's raw bytes; a *list* (`<hash>.list`) holds an ordered run of pieces (blob names and short
 * literal strings, such as the separators between messages) after an optional *base* list, so a
 * longer region that starts with a stored one stores only what follows it. A *name record*
 * (`<id>.ref`) holds the blob or list an id stands for; its modification time is when the id was
 * last named (its expiry and eviction age). `<id>.gone` is a tombstone; `<id>` alone is an original
 * as an earlier archive version kept it (its raw bytes). Everything else is foreign.
 */
import { createHash } from 'node:crypto';
import { isRecallIdShape } from '../core/compression/recallPointers.js';

export const REF_SUFFIX = '.ref';
export const TOMBSTONE_SUFFIX = '.gone';
export const LIST_SUFFIX = '.list';
/** Pieces shorter than this (UTF-16 units) go into their list as literals, not as blobs. */
export const INLINE_CHARS = 64;

const HASH_HEX = 40;
const BLOB_NAME = new RegExp(`^[0-9a-f]{${HASH_HEX}}$`);
const LIST_NAME = new RegExp(`^[0-9a-f]{${HASH_HEX}}\\${LIST_SUFFIX}$`);
const TEMP_NAME = /^\..*\.tmp$/;

/** What a file in a conversation's directory is, by its name. */
export type ArchiveEntryKind =
  'ref' | 'tombstone' | 'legacy' | 'blob' | 'list' | 'temp' | 'foreign';

export function entryKindOf(name: string): ArchiveEntryKind {
  if (BLOB_NAME.test(name)) return 'blob';
  if (LIST_NAME.test(name)) return 'list';
  if (isRecallIdShape(name)) return 'legacy';
  if (name.endsWith(REF_SUFFIX) && isRecallIdShape(name.slice(0, -REF_SUFFIX.length))) return 'ref';
  if (name.endsWith(TOMBSTONE_SUFFIX) && isRecallIdShape(name.slice(0, -TOMBSTONE_SUFFIX.length)))
    return 'tombstone';
  return TEMP_NAME.test(name) ? 'temp' : 'foreign';
}

/** Whether `name` is a blob or a list (content a name record may stand for). */
export function isNodeName(name: string): boolean {
  return BLOB_NAME.test(name) || LIST_NAME.test(name);
}

/** The stored form of one piece: a blob's name, or a literal string. */
export type StoredPiece = string | { readonly t: string };

export interface ListRecord {
  readonly base?: string;
  readonly pieces: readonly StoredPiece[];
}

/** A stored record that does not read as the archive wrote it. */
export class CorruptRecordError extends Error {
  readonly code = 'recall-corrupt-record';
  constructor(message: string) {
    super(message);
    this.name = 'CorruptRecordError';
  }
}

/** The blob name of `bytes`. */
export function blobName(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex').slice(0, HASH_HEX);
}

/** A list's bytes and its content-addressed name. */
export function encodeList(list: ListRecord): { name: string; bytes: Buffer } {
  const bytes = Buffer.from(JSON.stringify(list), 'utf8');
  return { name: blobName(bytes) + LIST_SUFFIX, bytes };
}

function isStoredPiece(piece: unknown): piece is StoredPiece {
  if (typeof piece === 'string') return BLOB_NAME.test(piece);
  return (
    typeof piece === 'object' &&
    piece !== null &&
    typeof (piece as { t?: unknown }).t === 'string' &&
    Object.keys(piece).length === 1
  );
}

export function decodeList(bytes: Buffer): ListRecord {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new CorruptRecordError('a list that is not JSON');
  }
  const { base, pieces } = (parsed ?? {}) as { base?: unknown; pieces?: unknown };
  const baseOk = base === undefined || (typeof base === 'string' && LIST_NAME.test(base));
  if (!baseOk || !Array.isArray(pieces) || !pieces.every(isStoredPiece)) {
    throw new CorruptRecordError('a list of another shape');
  }
  return base === undefined ? { pieces } : { base, pieces };
}

/** The blob or list a name record stands for. */
export function decodeRef(bytes: Buffer): string {
  const node = bytes.toString('utf8');
  if (!isNodeName(node)) throw new CorruptRecordError('a name record naming no blob or list');
  return node;
}

/** The children a list holds references to (its base first, then its blobs, repeats kept). */
export function childrenOf(list: ListRecord): string[] {
  const blobs = list.pieces.filter((piece): piece is string => typeof piece === 'string');
  return list.base === undefined ? blobs : [list.base, ...blobs];
}

/** Lists a base chain may hold before it is taken for a cycle. */
const MAX_CHAIN = 1_000_000;

/**
 * The bytes `node` stands for, as a generator that asks for each file it needs (yields its name,
 * receives its bytes or `undefined` when it is missing) and returns the parts in order: the same
 * steps drive a synchronous and an asynchronous reader. Throws `CorruptRecordError` on a missing
 * or malformed file.
 */
export function* expandNode(node: string): Generator<string, Buffer[], Buffer | undefined> {
  const need = function* (name: string): Generator<string, Buffer, Buffer | undefined> {
    const bytes = yield name;
    if (bytes === undefined) throw new CorruptRecordError(`${name} is missing`);
    return bytes;
  };
  if (!LIST_NAME.test(node)) return [yield* need(node)];
  const chain: ListRecord[] = [];
  for (let next: string | undefined = node; next !== undefined;) {
    if (chain.length >= MAX_CHAIN) throw new CorruptRecordError('a list chain without end');
    const list = decodeList(yield* need(next));
    chain.push(list);
    next = list.base;
  }
  const parts: Buffer[] = [];
  for (const list of chain.reverse()) {
    for (const piece of list.pieces) {
      parts.push(typeof piece === 'string' ? yield* need(piece) : Buffer.from(piece.t, 'utf8'));
    }
  }
  return parts;
}

/** Runs `expandNode` with a synchronous reader. */
export function expandSync(node: string, read: (name: string) => Buffer | undefined): Buffer {
  const steps = expandNode(node);
  let step = steps.next();
  while (step.done !== true) step = steps.next(read(step.value));
  return Buffer.concat(step.value);
}

/** Runs `expandNode` with an asynchronous reader. */
export async function expandAsync(
  node: string,
  read: (name: string) => Promise<Buffer | undefined>,
): Promise<Buffer> {
  const steps = expandNode(node);
  let step = steps.next();
  while (step.done !== true) step = steps.next(await read(step.value));
  return Buffer.concat(step.value);
}

/**
 * `pieces` with every boundary that splits a surrogate pair closed (the two neighbours joined), so
 * each piece encodes to the bytes it has in the joined text.
 */
export function wholeCodePoints(pieces: readonly string[]): string[] {
  const out: string[] = [];
  for (const piece of pieces) {
    const last = out.length - 1;
    const previous = out[last];
    const high = previous?.charCodeAt(previous.length - 1) ?? 0;
    const low = piece.charCodeAt(0);
    if (high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
      out[last] = `${previous ?? ''}${piece}`;
    } else out.push(piece);
  }
  return out;
}
