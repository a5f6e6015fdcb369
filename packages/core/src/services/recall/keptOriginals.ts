/**
 * Originals kept whole beside a shortened tool output: when a tool entry shows the model only part
 * of an output (the size cap), the entry's metadata holds the full text, so the recording, the
 * in-memory recall store and a resumed history all index it under the original's recall id.
 * Metadata is never sent to a provider and never counts as tokens.
 */
import type { ContentMetadata, IContent, ToolResponseBlock } from '../history/IContent.js';
import { recallIdOfResponse } from '../../core/compression/recallPointers.js';

/** The metadata key of an entry's kept originals. */
export const KEPT_ORIGINALS_KEY = 'keptOriginals';

/** One output as the tool returned it: its recall id is that of the unshortened response. */
export interface KeptOriginal {
  readonly callId: string;
  readonly toolName: string;
  /** The exact text `recall` returns (what `originalResponseText` gives for the original). */
  readonly text: string;
}

function isKeptOriginal(value: unknown): value is KeptOriginal {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.callId === 'string' &&
    typeof record.toolName === 'string' &&
    typeof record.text === 'string'
  );
}

/** The originals an entry keeps; malformed metadata (a hand-edited recording) yields none. */
export function keptOriginalsOf(entry: IContent): readonly KeptOriginal[] {
  const value = entry.metadata?.[KEPT_ORIGINALS_KEY];
  return Array.isArray(value) ? value.filter(isKeptOriginal) : [];
}

/** Recall ids already computed, per kept original (immutable, so an id never goes stale). */
const keptIds = new WeakMap<KeptOriginal, string>();

/**
 * The recall id of a kept original: the id its unshortened response had. Hashed once per object:
 * the cap, the tool entry's metadata and the recall store all ask for the same original's id.
 */
export function recallIdOfKept(kept: KeptOriginal): string {
  let id = keptIds.get(kept);
  if (id === undefined) {
    const block: ToolResponseBlock = {
      type: 'tool_response',
      callId: kept.callId,
      toolName: kept.toolName,
      result: kept.text,
    };
    id = recallIdOfResponse(block);
    keptIds.set(kept, id);
  }
  return id;
}

/** The kept original with recall id `id` in `entry`, if any. */
export function findKeptOriginal(entry: IContent, id: string): KeptOriginal | undefined {
  return keptOriginalsOf(entry).find((kept) => recallIdOfKept(kept) === id);
}

/**
 * `metadata` with `originals` added to the ones it keeps (same recall id once). Returns
 * `metadata` itself when there is nothing to add.
 */
export function withKeptOriginals(
  metadata: ContentMetadata | undefined,
  originals: readonly KeptOriginal[],
): ContentMetadata | undefined {
  if (originals.length === 0) return metadata;
  const existing = Array.isArray(metadata?.[KEPT_ORIGINALS_KEY])
    ? (metadata[KEPT_ORIGINALS_KEY] as readonly unknown[]).filter(isKeptOriginal)
    : [];
  const ids = new Set(existing.map(recallIdOfKept));
  const added = originals.filter((kept) => !ids.has(recallIdOfKept(kept)));
  return { ...metadata, [KEPT_ORIGINALS_KEY]: [...existing, ...added] };
}
