/**
 * The proxy bench's recall archive: the real `RecallArchive` (its bounds, eviction order and
 * lookups, as `dense proxy` runs it) over files held in memory instead of under `DENSE_HOME`, so a
 * bench run leaves nothing on disk. The grounding measure asks it which text an id stands for.
 */
import {
  DEFAULT_RECALL_CONVERSATION_BYTES,
  RecallArchive,
} from '../../packages/core/src/recall/RecallArchive.js';
import {
  memoryArchiveFiles,
  type MemoryArchiveFiles,
} from '../../packages/core/src/recall/memoryArchiveFiles.js';

export class BenchRecallArchive extends RecallArchive {
  private readonly memory: MemoryArchiveFiles;

  /** `boundBytes`: the bytes kept per conversation (the archive's default unless given). */
  constructor(boundBytes = DEFAULT_RECALL_CONVERSATION_BYTES) {
    const files = memoryArchiveFiles();
    super({ dir: files.root, files, maxConversationBytes: boundBytes });
    this.memory = files;
  }

  /** The exact original kept under `id`, or `undefined`. */
  textOf(id: string): string | undefined {
    return this.memory.bytesOf(id)?.toString('utf8');
  }
}
