/**
 * The recall store of a CLI session: the session recording when there is one (so ids
 * resolve after `--resume` too), with an in-memory copy of every entry as the fallback when the
 * recording is off or failed; then the recall archive, where every working-budget compaction puts
 * the originals its summary names that no entry holds (its removed messages as one transcript),
 * so the `recall` tool and `dense recall` in the session's shell both resolve them.
 */
import { readFile } from 'node:fs/promises';
import {
  ArchiveRecallStore,
  errorMessage,
  FallbackRecallStore,
  type RecallArchive,
  InMemoryRecallStore,
  RecordingRecallStore,
  type AgentSession,
  type RecallStore,
} from '@dense/core';

export interface SessionRecall {
  readonly store: RecallStore;
  /** Feeds the in-memory copy: the history so far, then every entry the turn loop adds. */
  attach(session: AgentSession): () => void;
  /** Resolves once every archive write begun so far has ended (before the process exits). */
  settled(): Promise<void>;
}

export interface RecordingView {
  readonly path: string;
  readonly hasFile: boolean;
}

/** Where the session's compactions put their originals: the archive, under the session's id. */
export interface SessionArchive {
  readonly archive: Pick<RecallArchive, 'put' | 'lookup'>;
  readonly conversationId: string;
  /** Told when an archive write fails (the summary's ids then resolve in this process only). */
  readonly onError: (message: string) => void;
}

export function createSessionRecall(recorder: RecordingView, saved: SessionArchive): SessionRecall {
  const memory = new InMemoryRecallStore();
  const recording = new RecordingRecallStore({
    file: recorder.path,
    readText: () =>
      recorder.hasFile ? readFile(recorder.path, 'utf8') : Promise.resolve(undefined),
  });
  const local = new FallbackRecallStore(recording, memory);
  const writes = new Set<Promise<void>>();
  return {
    store: new FallbackRecallStore(local, new ArchiveRecallStore(saved.archive)),
    attach(session) {
      for (const entry of session.history.getRawHistory()) memory.record(entry);
      const offs = [
        session.chat.events.on('contentRecorded', ({ content }) => memory.record(content)),
        session.compression.events.on('compressed', ({ result }) => {
          const originals = result.kind === 'applied' ? result.metadata.recall : undefined;
          if (originals === undefined || originals.length === 0) return;
          memory.remember(originals);
          const write = saved.archive
            .put(saved.conversationId, originals)
            .catch((error: unknown) => {
              saved.onError(
                `dense: the recall archive could not be written (${errorMessage(error)}); this compaction's recall ids resolve in this session only.`,
              );
            })
            .finally(() => writes.delete(write));
          writes.add(write);
        }),
      ];
      return () => {
        for (const off of offs) off();
      };
    },
    async settled() {
      await Promise.all([...writes]);
    },
  };
}
