/**
 * `bench:proxy --sent DIR`: what each side sent upstream, so a judge outside Dense can check the
 * oracles' verdicts. Per session, one JSONL file per side with one line per request that reached
 * that side's upstream (model calls and the compaction requests Dense did not answer itself): the
 * messages as sent (`sentEntries` of the body: system prompt and tools left out, they are the
 * bench's filler), the recorded entry the request stands for and, for a model call, the intent
 * oracle's counts — the line shape of `dense replay --sent` (`position`, `messages` as speaker and
 * blocks) with the bench's own fields. Also per session the user's messages the calls are judged
 * on (the entry each was typed at), and `sessions.jsonl`: which transcript each session label
 * stands for. The files hold transcript text: private (mode 600), written only where asked.
 */
import { appendFile, mkdir, open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { IContent } from '@dense/core';
import type { UserMessage } from '../../packages/core/src/replay/intent/planIntent.js';
import { entryAt } from './SideGrounding.js';
import type { CallIntent } from './SideIntent.js';

/** One request a side sent upstream. */
export interface SentLine {
  /** 1-based, per side. */
  readonly request: number;
  /** A model call, or the client's compaction request. */
  readonly kind: 'call' | 'compaction';
  /**
   * The recorded entry it stands for: a call's reply; for a compaction, the recorded summary, or
   * the call it was sent before where the recording has none.
   */
  readonly entry: number;
  /** The recording position of `entry` (the oracles judge what came before it). */
  readonly position: number;
  /** The model call's intent verdicts (earlier user messages verbatim / cut / lost); calls only. */
  readonly intent?: CallIntent;
  readonly messages: readonly IContent[];
}

/** Where the replay reports what a side sent. */
export interface SentSink {
  write(line: SentLine): Promise<void>;
}

export type SideName = 'pass-through' | 'proxy';

/** A file-system-safe stem of a session label (`source hash`). */
export function sentStem(label: string): string {
  return label.replace(/[^\w.-]+/g, '-');
}

/** The file a session's side is written to. */
export function sentFile(dir: string, label: string, side: SideName): string {
  return path.join(dir, `${sentStem(label)}.${side}.jsonl`);
}

/** The file of a session's user messages. */
export function userMessagesFile(dir: string, label: string): string {
  return path.join(dir, `${sentStem(label)}.user-messages.jsonl`);
}

/** A line's JSON with each message reduced to its speaker and blocks, as `dense replay` writes. */
function lineFields(this: unknown, key: string, value: unknown): unknown {
  if (key !== 'messages' || !Array.isArray(value)) return value;
  return (value as IContent[]).map((entry) => ({ speaker: entry.speaker, blocks: entry.blocks }));
}

const INDEX_FILE = 'sessions.jsonl';

/** Starts `dir`'s `sessions.jsonl` afresh (a run writes every session's line again). */
export async function startSentIndex(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true });
  const handle = await open(path.join(dir, INDEX_FILE), 'w', 0o600);
  await handle.close();
}

/** Adds a line to `sessions.jsonl` in `dir`: which transcript a session label stands for. */
export async function indexSession(
  dir: string,
  session: {
    readonly label: string;
    readonly source: string;
    readonly transcript: string;
    /** The session's index among the transcript's sessions. */
    readonly index: number;
  },
): Promise<void> {
  await mkdir(dir, { recursive: true });
  await appendFile(path.join(dir, INDEX_FILE), `${JSON.stringify(session)}\n`, {
    mode: 0o600,
  });
}

/** A JSONL file written one line at a time, in order. */
export class SentLog implements SentSink {
  private constructor(private readonly handle: FileHandle) {}

  static async open(file: string): Promise<SentLog> {
    await mkdir(path.dirname(file), { recursive: true });
    return new SentLog(await open(file, 'w', 0o600));
  }

  async write(line: SentLine | object): Promise<void> {
    await this.handle.write(`${JSON.stringify(line, lineFields)}\n`);
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/** A session's files: one per side, and its user messages written at once. */
export async function openSessionSent(
  dir: string,
  label: string,
  messages: readonly UserMessage[],
): Promise<{ passThrough: SentLog; proxy: SentLog; close(): Promise<void> }> {
  const users = await SentLog.open(userMessagesFile(dir, label));
  for (const message of messages) {
    const { position, text } = message;
    await users.write({ entry: entryAt(position), position, text });
  }
  await users.close();
  const passThrough = await SentLog.open(sentFile(dir, label, 'pass-through'));
  const proxy = await SentLog.open(sentFile(dir, label, 'proxy'));
  return {
    passThrough,
    proxy,
    close: async () => {
      await Promise.all([passThrough.close(), proxy.close()]);
    },
  };
}
