/**
 * gemini-cli `/chat share file.md` → IContent[]. The export is one section per `Content`
 * (`🧑‍💻 ## USER`, `## MODEL ✨` or, in early versions, `**user**:`) separated by `---` lines; tool
 * calls and responses are `**Tool Command**:` / `**Tool Response**:` fenced JSON. Sections are parsed
 * back into gemini turns and converted like the JSON export.
 */
import { countGeminiMarkdownCalls } from '../recordedCalls.js';
import { SessionBuilder, type ImportSource } from '../SessionBuilder.js';
import { convertGeminiTurns, type GeminiTurn } from './geminiContent.js';
import type { ImportedSession } from '../types.js';

const HEADER = /^(?:\S+\s+)?## (USER|MODEL)(?:\s+\S+)?$|^\*\*(user|model)\*\*:$/;
const MARKERS = [
  { prefix: '**Tool Command**:\n```json\n', key: 'functionCall' },
  { prefix: '**Tool Response**:\n```json\n', key: 'functionResponse' },
] as const;

/** Whether a text looks like a gemini-cli markdown export (used by format detection). */
export function looksLikeGeminiMarkdown(text: string): boolean {
  const firstLine = text.trimStart().split('\n', 1)[0]?.trim() ?? '';
  return HEADER.test(firstLine);
}

interface Section {
  readonly role: string;
  readonly body: string;
  /** 1-based line of the body's first line. */
  readonly line: number;
}

function roleOf(line: string): string | undefined {
  const match = HEADER.exec(line.trim());
  const role = match?.[1] ?? match?.[2];
  return role === undefined ? undefined : role.toLowerCase();
}

/** Sections start at the first line or after a blank, `---`, blank separator. */
export function splitSections(text: string): Section[] {
  const lines = text.split(/\r?\n/);
  const starts: { index: number; role: string }[] = [];
  lines.forEach((line, k) => {
    const role = roleOf(line);
    const separated =
      k === 0 || (lines[k - 1] === '' && lines[k - 2] === '---' && lines[k - 3] === '');
    if (role !== undefined && separated) starts.push({ index: k, role });
  });
  return starts.map((start, i) => {
    const next = starts[i + 1];
    const end = next === undefined ? lines.length : next.index - 3;
    const bodyStart = Math.min(start.index + 2, end);
    return { role: start.role, body: lines.slice(bodyStart, end).join('\n'), line: bodyStart + 1 };
  });
}

function sectionParts(section: Section, builder: SessionBuilder): unknown[] {
  const parts: unknown[] = [];
  const { body } = section;
  let at = 0;
  for (;;) {
    const found = MARKERS.map((marker) => ({ marker, index: body.indexOf(marker.prefix, at) }))
      .filter((hit) => hit.index !== -1)
      .sort((a, b) => a.index - b.index)[0];
    if (found === undefined) break;
    if (found.index > at) parts.push({ text: body.slice(at, found.index) });
    const jsonStart = found.index + found.marker.prefix.length;
    const fenceEnd = body.indexOf('\n```', jsonStart);
    const jsonEnd = fenceEnd === -1 ? body.length : fenceEnd;
    try {
      parts.push({ [found.marker.key]: JSON.parse(body.slice(jsonStart, jsonEnd)) as unknown });
    } catch {
      const line = section.line + body.slice(0, found.index).split('\n').length - 1;
      builder.skip({ line }, `expected JSON in the ${found.marker.key} block`);
    }
    at = fenceEnd === -1 ? body.length : fenceEnd + 4;
  }
  if (at < body.length) parts.push({ text: body.slice(at) });
  return parts;
}

/** Imports a gemini-cli markdown export. */
export function importGeminiMarkdown(text: string, source: ImportSource): ImportedSession {
  const builder = new SessionBuilder(source, 'gemini-cli-markdown');
  builder.addRecorded(countGeminiMarkdownCalls(text));
  const turns: GeminiTurn[] = splitSections(text).map((section) => ({
    role: section.role,
    parts: sectionParts(section, builder),
    location: { line: section.line },
  }));
  convertGeminiTurns(turns, builder);
  return builder.build();
}
