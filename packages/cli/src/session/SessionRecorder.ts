/**
 * Records a session as it happens: Dense's session JSONL (core's `sessionFormat`), one line per
 * history entry the turn loop adds, appended the moment it is added, plus event lines for
 * compressions and density edits. The file is created with its header on the first entry, so a
 * session that never says anything leaves no file; its path is the `transcriptPath` LLM summaries
 * point at. A write failure is reported once and recording stops; the session goes on.
 */
import {
  appendFileSync,
  chmodSync,
  closeSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
} from 'node:fs';
import path from 'node:path';
import {
  errorMessage,
  serializeSessionContent,
  serializeSessionEvent,
  serializeSessionHeader,
  type AgentSession,
  type IContent,
  type SessionHeader,
} from '@dense/core';

/** Appends text to a file, creating it (and its directory) when missing. Synchronous: keeps order. */
export type AppendText = (file: string, text: string) => void;

/** Recordings hold whatever the agent saw: readable by their owner only (files 0600, dir 0700). */
export const appendTextSync: AppendText = (file, text) => {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  appendFileSync(file, text, { encoding: 'utf8', mode: 0o600 });
};

/**
 * Prepares an existing recording for appending: owner-only permissions, and a newline after a
 * torn last line (a crash mid-write), so the next line starts on a line of its own.
 */
export function prepareForAppend(file: string): void {
  chmodSync(file, 0o600);
  const size = statSync(file).size;
  if (size === 0) return;
  const fd = openSync(file, 'r');
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    if (last[0] !== 0x0a) appendFileSync(file, '\n', 'utf8');
  } finally {
    closeSync(fd);
  }
}

export interface SessionRecorderOptions {
  readonly file: string;
  readonly header: SessionHeader;
  /** The file already exists with its header (a resumed session): only append. */
  readonly resumed?: boolean;
  readonly append?: AppendText;
  /** Readies a resumed recording before the first append (default: `prepareForAppend`). */
  readonly prepareResumed?: (file: string) => void;
  /** Told once, when a write fails; recording stops after that. */
  readonly onError?: (message: string) => void;
  readonly now?: () => number;
}

export class SessionRecorder {
  readonly path: string;
  private started: boolean;
  private failed = false;
  private prepared = false;
  private readonly append: AppendText;

  constructor(private readonly options: SessionRecorderOptions) {
    this.path = options.file;
    this.started = options.resumed === true;
    this.append = options.append ?? appendTextSync;
  }

  /** Whether the file exists by now (the first entry creates it). */
  get hasFile(): boolean {
    return this.started && !this.failed;
  }

  record(content: IContent): void {
    this.write(serializeSessionContent(content));
  }

  recordEvent(type: string, fields: Readonly<Record<string, unknown>> = {}): void {
    const at = new Date((this.options.now ?? Date.now)()).toISOString();
    this.write(serializeSessionEvent({ ...fields, type, at }));
  }

  /** Records every entry the session's turn loop adds, and its compression activity. */
  attach(session: AgentSession): () => void {
    const offs = [
      session.chat.events.on('contentRecorded', ({ content }) => this.record(content)),
      session.compression.events.on('compressed', (event) =>
        this.recordEvent('compression', {
          strategy: event.strategy,
          result: event.result.kind,
          ...(event.result.kind === 'noop' ? { reason: event.result.reason } : {}),
          tokensBefore: event.tokensBefore,
          tokensAfter: event.tokensAfter,
        }),
      ),
      session.compression.events.on('compactionLoop', (event) =>
        this.recordEvent('compactionLoop', {
          sendsSinceCompression: event.sendsSinceCompression,
          tokens: event.tokens,
          thresholdTokens: event.thresholdTokens,
        }),
      ),
      session.compression.events.on('densityApplied', (event) =>
        this.recordEvent('density', {
          strategy: event.strategy,
          // The recording's field names for the per-pass counts.
          readWritePairsPruned: event.metadata.readWrite,
          fileDeduplicationsPruned: event.metadata.dedup,
          recencyPruned: event.metadata.recency,
          tokensBefore: event.tokensBefore,
          tokensAfter: event.tokensAfter,
        }),
      ),
    ];
    return () => {
      for (const off of offs) off();
    };
  }

  private write(line: string): void {
    if (this.failed) return;
    try {
      if (!this.started) {
        this.append(this.path, serializeSessionHeader(this.options.header));
        this.started = true;
      } else if (this.options.resumed === true && !this.prepared) {
        (this.options.prepareResumed ?? prepareForAppend)(this.path);
      }
      this.prepared = true;
      this.append(this.path, line);
    } catch (error) {
      this.failed = true;
      this.options.onError?.(
        `Could not record the session to ${this.path}: ${errorMessage(error)}. The session goes on unrecorded.`,
      );
    }
  }
}
