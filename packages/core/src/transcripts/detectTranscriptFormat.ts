/**
 * Recognises a transcript's format from its content, not its file name: the shape of the first
 * JSONL line that names a format (leading metadata lines a client writes first, such as Claude
 * Code's `permission-mode`, are read past), or a whole JSON document's keys (or its first
 * element's, for arrays), or the markdown export's section headers. `sniffTranscript` also hands
 * back what it had to parse, so a JSON document is read only once.
 */
import { open, readFile } from 'node:fs/promises';
import { TranscriptError } from './TranscriptError.js';
import { looksLikeGeminiMarkdown } from './importers/geminiMarkdown.js';
import { jsonErrorOffset } from './jsonErrorOffset.js';
import { readFileLines, shortMessage } from './lineSource.js';
import { isParams } from './toolAliases.js';
import { CLAUDE_CODE_METADATA_TYPES } from './importers/claudeCodeRecordTypes.js';
import type { TranscriptFormat } from './types.js';

const HEAD_BYTES = 64 * 1024;
/** Lines of a JSONL file read to find one that names its format. */
const SNIFF_LINES = 32;
const CLAUDE_TYPES = new Set([
  'user',
  'assistant',
  'summary',
  'file-history-snapshot',
  'progress',
  'queue-operation',
  'system',
  ...CLAUDE_CODE_METADATA_TYPES,
]);
const CODEX_TYPES = new Set([
  'session_meta',
  'response_item',
  'turn_context',
  'event_msg',
  'compacted',
]);

function isEventList(list: readonly unknown[]): boolean {
  const first = Array.isArray(list[0]) ? (list[0] as unknown[])[0] : list[0];
  return (
    isParams(first) && (typeof first.action === 'string' || typeof first.observation === 'string')
  );
}

type Json = Readonly<Record<string, unknown>>;

function messagesFormat(o: Json): TranscriptFormat | undefined {
  if (!Array.isArray(o.messages)) return undefined;
  if (
    typeof o.projectHash === 'string' ||
    (typeof o.sessionId === 'string' && typeof o.startTime === 'string')
  ) {
    return 'gemini-cli-recording';
  }
  const trajectoryFormat = typeof o.trajectory_format === 'string' ? o.trajectory_format : '';
  const info = isParams(o.info) ? o.info : {};
  return trajectoryFormat.startsWith('mini-swe-agent') || 'mini_version' in info
    ? 'mini-swe-agent'
    : undefined;
}

function historyFormat(o: Json): TranscriptFormat | undefined {
  if (!Array.isArray(o.history)) return undefined;
  if (Array.isArray(o.trajectory)) return 'swe-agent';
  return isEventList(o.history) || o.history.length === 0 ? 'openhands-output' : 'swe-agent';
}

function lineFormat(o: Json): TranscriptFormat | undefined {
  const type = typeof o.type === 'string' ? o.type : undefined;
  if (o.kind === 'session') return 'dense-session';
  if (type !== undefined && CODEX_TYPES.has(type) && 'payload' in o) return 'codex';
  const claudeKeys = ['sessionId', 'uuid', 'leafUuid', 'messageId'].some((key) => key in o);
  if (type !== undefined && CLAUDE_TYPES.has(type) && claudeKeys) return 'claude-code';
  const legacyCodexHeader =
    typeof o.id === 'string' &&
    typeof o.timestamp === 'string' &&
    ('instructions' in o || 'git' in o);
  return type === undefined && legacyCodexHeader ? 'codex' : undefined;
}

function classifyObject(o: Json): TranscriptFormat | undefined {
  return messagesFormat(o) ?? historyFormat(o) ?? lineFormat(o);
}

/** The format a parsed JSON value (a whole document, or the first JSONL line) belongs to, if any. */
export function classifyJsonValue(value: unknown): TranscriptFormat | undefined {
  if (Array.isArray(value)) {
    const first: unknown = value[0];
    if (isParams(first) && Array.isArray(first.parts) && typeof first.role === 'string')
      return 'gemini-cli-content';
    if (isParams(first) && lineFormat(first) === 'claude-code') return 'claude-code';
    return isEventList(value) ? 'openhands-events' : undefined;
  }
  return isParams(value) ? classifyObject(value) : undefined;
}

export interface Sniffed {
  readonly format: TranscriptFormat;
  /** The parsed document, for JSON-document formats. */
  readonly document?: unknown;
  /** The whole text, for the markdown format. */
  readonly text?: string;
}

async function readHead(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The first non-blank lines of a file (up to `count`), streamed so a huge line is read once. */
async function firstLines(file: string, count: number): Promise<string[]> {
  const lines: string[] = [];
  for await (const line of readFileLines(file)) {
    if (line.trim() !== '') lines.push(line);
    if (lines.length >= count) break;
  }
  return lines;
}

function parseLine(line: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The format the first lines name, read in order: a line of no known shape (a client's metadata
 * line, a header of a newer version) is passed over, up to `SNIFF_LINES` lines.
 */
function classifyLines(lines: readonly string[]): {
  readonly format?: TranscriptFormat;
  readonly first?: unknown;
} {
  for (const line of lines) {
    const value = parseLine(line);
    const format = value === undefined ? undefined : classifyJsonValue(value);
    if (format !== undefined) return { format, first: value };
  }
  return {};
}

/** Parses a whole JSON document; a syntax error names the file and line. */
export function parseJsonDocument(text: string, file: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const offset = jsonErrorOffset(text);
    const line = offset === undefined ? undefined : text.slice(0, offset).split('\n').length;
    throw new TranscriptError(
      'TRANSCRIPT_INVALID_JSON',
      `${file}${line === undefined ? '' : `:${line}`}: not valid JSON (${shortMessage(error)}); expected one JSON document or JSON Lines.`,
      file,
      line === undefined ? undefined : { line },
      { cause: error },
    );
  }
}

function unknownFormat(file: string): TranscriptError {
  return new TranscriptError(
    'TRANSCRIPT_UNKNOWN_FORMAT',
    `${file}: not a transcript format dense can read. Expected a dense session, gemini-cli (recording, /chat share JSON or markdown), Claude Code, Codex, OpenHands, SWE-agent or mini-swe-agent file.`,
    file,
  );
}

/** Whether the file's text starts with `[` (after a byte-order mark and white space). */
export async function startsWithJsonArray(file: string): Promise<boolean> {
  return (await readHead(file))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .startsWith('[');
}

/** Detects the format, parsing as much as detection needs (and returning it). */
export async function sniffTranscript(file: string): Promise<Sniffed> {
  const head = (await readHead(file)).replace(/^\uFEFF/, '');
  const start = head.trimStart()[0];
  if (start === '{') {
    const lines = await firstLines(file, SNIFF_LINES);
    const { format, first } = classifyLines(lines);
    if (format !== undefined) return { format, document: first };
    // A whole object on the first line and more after it is JSON Lines, never one document: of a
    // format we do not know, so say that, not "not valid JSON".
    if (lines.length > 1 && isParams(parseLine(lines[0] ?? ''))) throw unknownFormat(file);
  }
  if (start === '{' || start === '[') {
    const document = parseJsonDocument(await readFile(file, 'utf8'), file);
    const format = classifyJsonValue(document);
    if (format === undefined) throw unknownFormat(file);
    return { format, document };
  }
  if (looksLikeGeminiMarkdown(head))
    return { format: 'gemini-cli-markdown', text: await readFile(file, 'utf8') };
  throw unknownFormat(file);
}

/** The format of a transcript file, from its content. Throws TranscriptError when unknown. */
export async function detectTranscriptFormat(file: string): Promise<TranscriptFormat> {
  return (await sniffTranscript(file)).format;
}
