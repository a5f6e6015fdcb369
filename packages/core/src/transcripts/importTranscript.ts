/**
 * The entry point: read a recorded session file of any supported format into our canonical
 * `IContent[]`. Detects the format from the content (or takes `options.format`), streams JSONL line
 * by line, reads JSON and markdown documents whole, and never writes anything. Malformed records
 * are skipped and reported; a file with nothing usable is a TranscriptError naming file and line.
 */
import { readFile } from 'node:fs/promises';
import { errorMessage } from '../utils/errors.js';
import {
  parseJsonDocument,
  sniffTranscript,
  startsWithJsonArray,
  type Sniffed,
} from './detectTranscriptFormat.js';
import { importClaudeCode, importClaudeCodeRecords } from './importers/claudeCode.js';
import { importCodexRollout } from './importers/codexRollout.js';
import { importDenseSession } from './importers/denseSession.js';
import { importGeminiContent } from './importers/geminiContent.js';
import { importGeminiMarkdown } from './importers/geminiMarkdown.js';
import { importGeminiRecording } from './importers/geminiRecording.js';
import { importMiniSweAgent } from './importers/miniSweAgent.js';
import { importOpenHandsEvents, importOpenHandsOutput } from './importers/openHands.js';
import { importSweAgent } from './importers/sweAgent.js';
import { readFileLines } from './lineSource.js';
import type { ImportSource } from './SessionBuilder.js';
import { TranscriptError, describeLocation } from './TranscriptError.js';
import type { ImportedSession, ImportOptions, TranscriptFormat } from './types.js';

const STREAMED: ReadonlySet<TranscriptFormat> = new Set([
  'dense-session',
  'claude-code',
  'codex',
  'openhands-output',
]);

/** What `sniffTranscript` would return, for a format given by the caller. */
async function load(file: string, format: TranscriptFormat): Promise<Sniffed> {
  if (format === 'gemini-cli-markdown') return { format, text: await readFile(file, 'utf8') };
  const claudeArray = format === 'claude-code' && (await startsWithJsonArray(file));
  if (STREAMED.has(format) && !claudeArray) return { format };
  return { format, document: parseJsonDocument(await readFile(file, 'utf8'), file) };
}

async function importSniffed(
  file: string,
  sniffed: Sniffed,
  source: ImportSource,
): Promise<ImportedSession[]> {
  const lines = (): AsyncIterable<string> => readFileLines(file);
  switch (sniffed.format) {
    case 'dense-session':
      return [await importDenseSession(lines(), source)];
    case 'claude-code':
      return [
        Array.isArray(sniffed.document)
          ? importClaudeCodeRecords(sniffed.document, source)
          : await importClaudeCode(lines(), source),
      ];
    case 'codex':
      return [await importCodexRollout(lines(), source)];
    case 'openhands-output': {
      const { sessions, invalidLines } = await importOpenHandsOutput(lines(), source);
      const [first, ...rest] = sessions;
      if (first === undefined) return [];
      return [{ ...first, skipped: [...invalidLines, ...first.skipped] }, ...rest];
    }
    case 'gemini-cli-markdown':
      return [importGeminiMarkdown(sniffed.text ?? (await readFile(file, 'utf8')), source)];
    case 'gemini-cli-recording':
      return [importGeminiRecording(sniffed.document, source)];
    case 'gemini-cli-content':
      return [importGeminiContent(sniffed.document, source)];
    case 'openhands-events':
      return [importOpenHandsEvents(sniffed.document, source)];
    case 'swe-agent':
      return [importSweAgent(sniffed.document, source)];
    case 'mini-swe-agent':
      return [importMiniSweAgent(sniffed.document, source)];
  }
}

function ioError(file: string, error: unknown): TranscriptError {
  return new TranscriptError(
    'TRANSCRIPT_IO',
    `Cannot read transcript ${file}: ${errorMessage(error)}. Check that the path names a readable file.`,
    file,
    undefined,
    { cause: error },
  );
}

function emptyError(file: string, session: ImportedSession | undefined): TranscriptError {
  const first = session?.skipped[0];
  const detail =
    first === undefined
      ? 'it holds no conversation records'
      : `${session?.skipped.length ?? 0} record(s) were skipped, the first at ${describeLocation(file, first)}: ${first.reason}`;
  return new TranscriptError(
    'TRANSCRIPT_EMPTY',
    `${file}: no usable session (${detail}).`,
    file,
    first,
  );
}

/**
 * Every session in a transcript file, in file order (OpenHands `output.jsonl` holds several; every
 * other format one). Throws TranscriptError when the file cannot be read, its format is unknown, or
 * no session has any content.
 */
export async function importTranscriptSessions(
  file: string,
  options: ImportOptions = {},
): Promise<ImportedSession[]> {
  const source: ImportSource = {
    file,
    ...(options.includeThinking === undefined ? {} : { includeThinking: options.includeThinking }),
  };
  let sessions: ImportedSession[];
  try {
    const sniffed =
      options.format === undefined ? await sniffTranscript(file) : await load(file, options.format);
    sessions = await importSniffed(file, sniffed, source);
  } catch (error) {
    if (error instanceof TranscriptError) throw error;
    throw ioError(file, error);
  }
  const usable = sessions.filter((session) => session.contents.length > 0);
  if (usable.length === 0) throw emptyError(file, sessions[0]);
  return usable;
}

export interface ImportTranscriptOptions extends ImportOptions {
  /** Which session of a multi-session file (0-based); required when the file holds several. */
  readonly session?: number;
}

/**
 * One session from a transcript file. For files with several sessions pass `options.session`
 * (or use `importTranscriptSessions`); otherwise this throws `TRANSCRIPT_MULTIPLE_SESSIONS`.
 */
export async function importTranscript(
  file: string,
  options: ImportTranscriptOptions = {},
): Promise<ImportedSession> {
  const sessions = await importTranscriptSessions(file, options);
  if (options.session !== undefined) {
    const session = sessions[options.session];
    if (session === undefined) {
      throw new TranscriptError(
        'TRANSCRIPT_MULTIPLE_SESSIONS',
        `${file}: has ${sessions.length} session(s); session ${options.session} does not exist (use 0–${sessions.length - 1}).`,
        file,
      );
    }
    return session;
  }
  const [only, ...others] = sessions;
  if (only === undefined || others.length > 0) {
    throw new TranscriptError(
      'TRANSCRIPT_MULTIPLE_SESSIONS',
      `${file}: holds ${sessions.length} sessions; pass { session: n } or use importTranscriptSessions.`,
      file,
    );
  }
  return only;
}
