/**
 * The recall store over a recall archive (`RecallArchive`, what `dense recall` reads): the
 * originals a working-budget summary names that no history entry holds, after a resume too.
 */
import { recallMissingMessage, type ArchiveLookup } from '../../recall/RecallArchive.js';
import { errorMessage } from '../../utils/errors.js';
import type { RecallLookup, RecallStore } from './RecallStore.js';

export interface ArchiveReader {
  lookup(id: string): Promise<ArchiveLookup>;
}

export class ArchiveRecallStore implements RecallStore {
  constructor(private readonly archive: ArchiveReader) {}

  async lookup(id: string): Promise<RecallLookup> {
    let found: ArchiveLookup;
    try {
      found = await this.archive.lookup(id);
    } catch (error) {
      return {
        kind: 'unavailable',
        message: `The recall archive could not be read (${errorMessage(error)}).`,
      };
    }
    if (found.kind === 'found') return { kind: 'found', content: found.bytes.toString('utf8') };
    return { kind: 'unknown-id', message: recallMissingMessage(id, found.reason) };
  }
}
