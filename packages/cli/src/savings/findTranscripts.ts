/**
 * Finds the transcripts `dense savings` replays: in the clients' own folders
 * (`sourceLocations`), or under the `--path` entries instead; only files modified within `--since`
 * (a file named directly is always taken). Claude Code's compaction-call files are left out and
 * counted. Says where it looked and what it found there, for the "no transcripts found" message.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { listTranscriptFiles, ReplayError } from '@dense/core';
import {
  isCompactionCallFile,
  sourceLocations,
  type SavingsSource,
  type SourceLocation,
} from './transcriptSources.js';

export interface FoundFile {
  readonly file: string;
  /** The client folder it was found in; `undefined` for `--path` (the format decides). */
  readonly source?: SavingsSource;
}

/** One place looked in and what was there. */
export interface LookedIn {
  readonly label: string;
  readonly root: string;
  readonly pattern: string;
  readonly fromEnv?: string;
  /** `missing`: no such folder; otherwise the session files there and how many are recent. */
  readonly found: 'missing' | { readonly files: number; readonly recent: number };
}

export interface FoundTranscripts {
  readonly files: readonly FoundFile[];
  readonly looked: readonly LookedIn[];
  /** Claude Code compaction-call files left out (`subagents/agent-acompact-*`). */
  readonly compactionCalls: number;
  /** Entries of a folder not taken (links not followed, unreadable entries), with the reason. */
  readonly leftOut: readonly { readonly file: string; readonly reason: string }[];
}

export interface FindOptions {
  readonly env: NodeJS.ProcessEnv;
  readonly home: string;
  /** `--path` entries (relative ones resolve against `cwd`); empty: the clients' folders. */
  readonly paths: readonly string[];
  readonly cwd: string;
  /** Oldest modification time taken (ms since the epoch); `-Infinity` for all. */
  readonly notBefore: number;
}

interface Walked {
  readonly files: string[];
  readonly leftOut: { file: string; reason: string }[];
  readonly missing: boolean;
}

/** Every file below `root` (links to files followed; hidden entries left out). */
async function walk(root: string): Promise<Walked> {
  const leftOut: { file: string; reason: string }[] = [];
  try {
    const files = await listTranscriptFiles(root, {
      onSkipped: (entry) => {
        if (entry.kind !== 'duplicate') leftOut.push({ file: entry.path, reason: entry.reason });
      },
    });
    return { files, leftOut, missing: false };
  } catch (error) {
    if (!(error instanceof ReplayError)) throw error;
    const exists = await stat(root).then(
      () => true,
      () => false,
    );
    return { files: [], leftOut, missing: !exists };
  }
}

const relativeOf = (root: string, file: string): string =>
  path.relative(root, file).split(path.sep).join('/');

async function isRecent(file: string, notBefore: number): Promise<boolean> {
  const info = await stat(file).catch(() => undefined);
  return info !== undefined && info.mtimeMs >= notBefore;
}

interface Taken {
  readonly files: FoundFile[];
  readonly looked: LookedIn;
  readonly compactionCalls: number;
  readonly leftOut: readonly { file: string; reason: string }[];
}

/** The session files of one folder: those `matches` accepts, recent, not compaction calls. */
async function takeFolder(input: {
  readonly label: string;
  readonly root: string;
  readonly pattern: string;
  readonly matches: (relative: string) => boolean;
  readonly source?: SavingsSource;
  readonly fromEnv?: string;
  readonly notBefore: number;
}): Promise<Taken> {
  const walked = await walk(input.root);
  const files: FoundFile[] = [];
  let compactionCalls = 0;
  let sessions = 0;
  for (const file of walked.files) {
    const relative = relativeOf(input.root, file);
    if (!input.matches(relative)) continue;
    const recent = await isRecent(file, input.notBefore);
    if (isCompactionCallFile(relative)) {
      if (recent) compactionCalls += 1;
      continue;
    }
    sessions += 1;
    if (recent) files.push(input.source === undefined ? { file } : { file, source: input.source });
  }
  const looked: LookedIn = {
    label: input.label,
    root: input.root,
    pattern: input.pattern,
    ...(input.fromEnv === undefined ? {} : { fromEnv: input.fromEnv }),
    found: walked.missing ? 'missing' : { files: sessions, recent: files.length },
  };
  return { files, looked, compactionCalls, leftOut: walked.leftOut };
}

const SOURCE_NAMES: Readonly<Record<SourceLocation['source'], string>> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  'gemini-cli': 'gemini-cli',
};

/** A `--path` entry: a file is taken as it is; a folder, its `.jsonl` and `.json` files. */
async function takePath(entry: string, options: FindOptions): Promise<Taken> {
  const target = path.resolve(options.cwd, entry);
  const info = await stat(target).catch(() => undefined);
  if (info?.isFile() === true) {
    return {
      files: [{ file: target }],
      looked: { label: '--path', root: target, pattern: 'file', found: { files: 1, recent: 1 } },
      compactionCalls: 0,
      leftOut: [],
    };
  }
  return takeFolder({
    label: '--path',
    root: target,
    pattern: '**/*.jsonl, **/*.json',
    matches: (relative) => relative.endsWith('.jsonl') || relative.endsWith('.json'),
    notBefore: options.notBefore,
  });
}

/** The files to replay, in the order found (each folder sorted), and where they were looked for. */
export async function findTranscripts(options: FindOptions): Promise<FoundTranscripts> {
  const taken: Taken[] = [];
  if (options.paths.length > 0) {
    for (const entry of options.paths) taken.push(await takePath(entry, options));
  } else {
    for (const location of sourceLocations(options.env, options.home)) {
      taken.push(
        await takeFolder({
          ...location,
          label: SOURCE_NAMES[location.source],
          notBefore: options.notBefore,
        }),
      );
    }
  }
  return {
    files: taken.flatMap((t) => t.files),
    looked: taken.map((t) => t.looked),
    compactionCalls: taken.reduce((sum, t) => sum + t.compactionCalls, 0),
    leftOut: taken.flatMap((t) => t.leftOut),
  };
}
