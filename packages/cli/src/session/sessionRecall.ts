/**
 * The recall store of a CLI session: the session recording when there is one (so ids
 * resolve after `--resume` too), with an in-memory copy of every entry as the fallback when the
 * recording is off or failed.
 */
import { readFile } from 'node:fs/promises';
import {
  FallbackRecallStore,
  InMemoryRecallStore,
  RecordingRecallStore,
  type AgentSession,
  type RecallStore,
} from '@dense/core';

export interface SessionRecall {
  readonly store: RecallStore;
  /** Feeds the in-memory copy: the history so far, then every entry the turn loop adds. */
  attach(session: AgentSession): () => void;
}

export interface RecordingView {
  readonly path: string;
  readonly hasFile: boolean;
}

export function createSessionRecall(recorder: RecordingView): SessionRecall {
  const memory = new InMemoryRecallStore();
  const recording = new RecordingRecallStore({
    file: recorder.path,
    readText: () =>
      recorder.hasFile ? readFile(recorder.path, 'utf8') : Promise.resolve(undefined),
  });
  return {
    store: new FallbackRecallStore(recording, memory),
    attach(session) {
      for (const entry of session.history.getRawHistory()) memory.record(entry);
      return session.chat.events.on('contentRecorded', ({ content }) => memory.record(content));
    },
  };
}
