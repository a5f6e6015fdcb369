/**
 * What each policy sent to each model call of a replay, written where the user asks (`dense replay
 * --sent DIR`) so that an outside judge can check any oracle's verdicts from the files alone,
 * without Dense's code. One JSONL file per session, policy and window (`sentLogName.ts`), one line
 * per model call: `{"call":n,"position":p,"messages":[{"speaker":…,"blocks":[…]},…]}`.
 *
 * A line is written whole: encoded first, then written at the end of the file in one write (a
 * short write is continued); a failed write is cut back off before the typed error is thrown, so
 * an interrupted run leaves only complete lines. The files hold the transcripts' contents: they go
 * only where the caller names.
 */
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import type { IContent } from '../services/history/IContent.js';
import { DenseError, errorMessage } from '../utils/errors.js';
import {
  sentLogFileName,
  sentSessionStem,
  sentTranscriptName,
  type SentLogKey,
} from './sentLogName.js';

/** The directory (or a file in it) cannot be created or written. Shown as one line. */
export class SentLogError extends DenseError {
  readonly code = 'REPLAY_SENT_UNWRITABLE';

  constructor(target: string, cause: unknown) {
    super(`cannot write what was sent to ${target}: ${errorMessage(cause)}`, { cause });
  }
}

/** What the replay's recorder calls for each model call, in order. */
export interface SentSink {
  /** `messages`: the entries sent; `position`: the recording position of the reply. */
  record(messages: readonly IContent[], position: number): Promise<void>;
}

/**
 * Each entry's JSON as UTF-8, made once: entries are immutable values shared by every call and
 * policy, and a line is then one copy of bytes already encoded (encoding each line's joined text
 * anew cost more than the replay itself on long sessions).
 */
const entryBytes = new WeakMap<IContent, Buffer>();

function bytesOf(entry: IContent): Buffer {
  let bytes = entryBytes.get(entry);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify({ speaker: entry.speaker, blocks: entry.blocks }), 'utf8');
    entryBytes.set(entry, bytes);
  }
  return bytes;
}

const COMMA = Buffer.from(',');
const LINE_END = Buffer.from(']}\n');

/**
 * One line of a sent log as UTF-8, newline included: the text of `JSON.stringify({ call,
 * position, messages })` with each message reduced to its speaker and blocks (metadata is not
 * sent).
 */
export function sentLineBytes(
  call: number,
  position: number,
  messages: readonly IContent[],
): Buffer {
  const parts: Buffer[] = [Buffer.from(`{"call":${call},"position":${position},"messages":[`)];
  messages.forEach((entry, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(bytesOf(entry));
  });
  parts.push(LINE_END);
  return Buffer.concat(parts);
}

/** `sentLineBytes` as text. */
export function sentLine(call: number, position: number, messages: readonly IContent[]): string {
  return sentLineBytes(call, position, messages).toString('utf8');
}

/** The part of an open file a sent log uses (Node's `FileHandle` by default). */
export interface SentLogFile {
  write(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
  ): Promise<{ readonly bytesWritten: number }>;
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

/** One run's file: created (or emptied) on open, a line appended per model call. */
export class SentLog implements SentSink {
  private calls = 0;
  private bytes = 0;

  /** `handle`: `file` opened empty for writing. */
  constructor(
    readonly file: string,
    private readonly handle: SentLogFile,
  ) {}

  /** Creates `file`, replacing one of that name. Throws `SentLogError`. */
  static async create(file: string): Promise<SentLog> {
    try {
      return new SentLog(file, await open(file, 'w', 0o600));
    } catch (error) {
      throw new SentLogError(file, error);
    }
  }

  /** Appends the next call's line (calls are numbered from 1). Throws `SentLogError`. */
  async record(messages: readonly IContent[], position: number): Promise<void> {
    const line = sentLineBytes(this.calls + 1, position, messages);
    let written = 0;
    try {
      while (written < line.length) {
        const at = this.bytes + written;
        const { bytesWritten } = await this.handle.write(line, written, line.length - written, at);
        written += bytesWritten;
      }
    } catch (error) {
      // A torn line would read as a corrupt record: cut the file back to its last whole line.
      await this.handle.truncate(this.bytes).catch(() => undefined);
      throw new SentLogError(this.file, error);
    }
    this.bytes += line.length;
    this.calls += 1;
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

/** Where a replay writes its sent log. */
export interface SentLogTarget {
  /** The directory: created (private to the user) when missing. */
  readonly dir: string;
  /**
   * The transcript's part of the file name (`sentLogName.ts`); default: its file name without the
   * extension. A caller replaying two transcripts of the same name gives them distinct names.
   */
  readonly name?: string;
}

/**
 * Creates the log of one run in `target.dir`, replacing a file of the same name. Throws
 * `SentLogError` when the directory or the file cannot be created.
 */
export async function openSentLog(target: SentLogTarget, key: SentLogKey): Promise<SentLog> {
  try {
    await mkdir(target.dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new SentLogError(target.dir, error);
  }
  const stem = sentSessionStem(target.name ?? sentTranscriptName(key.file), key.sessionIndex);
  return SentLog.create(path.join(target.dir, sentLogFileName(stem, key)));
}
