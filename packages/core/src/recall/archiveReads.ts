/**
 * Reading the recall archive: a writer's scan of every conversation's files into its account, and
 * one id's lookup. Neither follows a symbolic link nor stops at a file it cannot use: a directory,
 * link, foreign or corrupt file is reported through `warn` and skipped, and the other ids stay
 * readable.
 */
import { ArchiveIndex } from './ArchiveIndex.js';
import type { ArchiveFiles, ListedEntry } from './archiveFiles.js';
import {
  childrenOf,
  decodeList,
  decodeRef,
  entryKindOf,
  expandAsync,
  REF_SUFFIX,
  TOMBSTONE_SUFFIX,
} from './archiveLayout.js';

const CONVERSATION_NAME = /^[0-9a-f]{16}$/;
/** A temp file this old is left over from a write that died. */
const TEMP_STALE_MS = 60 * 60_000;

export interface ReadContext {
  readonly files: ArchiveFiles;
  readonly now: number;
  readonly ttlMs: number;
  /** Reports a skipped file (each once, by the caller). */
  readonly warn: (file: string, why: string) => void;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The conversation directories under the root; anything else there is reported. */
export async function conversationDirs(context: ReadContext): Promise<string[]> {
  const dirs: string[] = [];
  for (const entry of await context.files.conversations()) {
    if (entry.name.startsWith('.')) continue;
    if (!CONVERSATION_NAME.test(entry.name)) context.warn(entry.name, 'not an archive directory');
    else if (entry.kind !== 'directory') context.warn(entry.name, 'not a directory');
    else dirs.push(entry.name);
  }
  return dirs.sort();
}

/** Files a scan leaves to delete: old tombstones and temp files of writes that died. */
export interface ScanResult {
  readonly index: ArchiveIndex;
  readonly stale: readonly { readonly conversation: string; readonly name: string }[];
}

async function scanEntry(
  context: ReadContext,
  scan: { index: ArchiveIndex; stale: { conversation: string; name: string }[] },
  conversation: string,
  entry: ListedEntry,
): Promise<void> {
  const kind = entryKindOf(entry.name);
  const where = `${conversation}/${entry.name}`;
  if (kind === 'temp') {
    if (context.now - entry.at > TEMP_STALE_MS) scan.stale.push({ conversation, name: entry.name });
    return;
  }
  if (kind === 'foreign') return context.warn(where, 'not an archive file');
  if (entry.kind !== 'file') return context.warn(where, 'not a regular file');
  const { index } = scan;
  const at = entry.at;
  if (kind === 'blob') {
    return index.addNode(conversation, entry.name, { bytes: entry.bytes, at, children: [] });
  }
  if (kind === 'legacy') {
    index.setName({ conversation, id: entry.name, root: undefined, bytes: entry.bytes, at }, false);
    return;
  }
  if (kind === 'tombstone') {
    const id = entry.name.slice(0, -TOMBSTONE_SUFFIX.length);
    if (context.now - at > context.ttlMs) scan.stale.push({ conversation, name: entry.name });
    else index.account(conversation).tombstones.set(id, at);
    return;
  }
  const read = await context.files.read(conversation, entry.name);
  if (read === undefined) return;
  if (kind === 'list') {
    const children = childrenOf(decodeList(read.bytes));
    index.addNode(conversation, entry.name, { bytes: entry.bytes, at, children });
  } else {
    const id = entry.name.slice(0, -REF_SUFFIX.length);
    const root = decodeRef(read.bytes);
    index.setName({ conversation, id, root, bytes: 0, at }, false);
  }
}

/** Every conversation's files as a writer's account (references counted once all are read). */
export async function scanArchive(context: ReadContext): Promise<ScanResult> {
  const scan = { index: new ArchiveIndex(), stale: [] as { conversation: string; name: string }[] };
  for (const conversation of await conversationDirs(context)) {
    for (const entry of await context.files.list(conversation)) {
      try {
        await scanEntry(context, scan, conversation, entry);
      } catch (error) {
        context.warn(`${conversation}/${entry.name}`, errorText(error));
      }
    }
  }
  scan.index.link();
  return scan;
}

export type LookupOutcome =
  | { readonly kind: 'found'; readonly bytes: Buffer }
  | { readonly kind: 'missing'; readonly reason: 'unknown' | 'expired' | 'evicted' };

/** What one conversation's directory holds for `id`. */
async function lookupIn(
  context: ReadContext,
  conversation: string,
  id: string,
): Promise<LookupOutcome> {
  const { files } = context;
  const ref = await files.read(conversation, id + REF_SUFFIX);
  const whole = ref === undefined ? await files.read(conversation, id) : undefined;
  const at = ref?.at ?? whole?.at;
  if (at !== undefined && context.now - at > context.ttlMs) {
    return { kind: 'missing', reason: 'expired' };
  }
  if (whole !== undefined) return { kind: 'found', bytes: whole.bytes };
  if (ref !== undefined) {
    const read = async (name: string) => (await files.read(conversation, name))?.bytes;
    return { kind: 'found', bytes: await expandAsync(decodeRef(ref.bytes), read) };
  }
  const tombstone = (await files.read(conversation, id + TOMBSTONE_SUFFIX))?.bytes.toString();
  if (tombstone === 'expired' || tombstone === 'evicted') {
    return { kind: 'missing', reason: tombstone };
  }
  return { kind: 'missing', reason: 'unknown' };
}

/**
 * The original `id` names in any conversation (the first found that has not expired); else why
 * there is none: expired where one has expired, else a tombstone's reason, else unknown.
 */
export async function lookupOriginal(context: ReadContext, id: string): Promise<LookupOutcome> {
  let reason: 'unknown' | 'expired' | 'evicted' = 'unknown';
  for (const conversation of await conversationDirs(context)) {
    let found: LookupOutcome;
    try {
      found = await lookupIn(context, conversation, id);
    } catch (error) {
      context.warn(`${conversation}/${id}`, errorText(error));
      continue;
    }
    if (found.kind === 'found') return found;
    if (found.reason === 'expired' || reason === 'unknown') reason = found.reason;
  }
  return { kind: 'missing', reason };
}
