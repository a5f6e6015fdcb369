/**
 * Rewrites the file contents gemini-cli inlines into OUR inclusion format (`formatFileInclusion`,
 * one opening and closing marker per file), so the dedup pass sees real files. Two layouts exist:
 * the `@` expansion (`--- Content from referenced files ---`, then `Content from @<path>:` and the
 * file, per file, then `--- End of content ---`) and older `read_many_files` output (`--- <path> ---`
 * before each file and one `--- End of content ---` after the last). The header line is never
 * treated as a file.
 */
import { INCLUSION_CLOSE, formatFileInclusions } from '../core/compression/densityVocabulary.js';

export const REFERENCED_FILES_HEADER = '--- Content from referenced files ---';

export interface InlinedFile {
  readonly path: string;
  readonly content: string;
}

const AT_FILE_MARKER = /(?:^|\n)Content from @(.+?):\n/g;
const HAS_AT_FILE_MARKER = /(?:^|\n)Content from @.+?:\n/;
const LEGACY_OPEN = /^--- (.+) ---$/;

/**
 * Files in an `@` expansion body (`Content from @<path>:` markers). Each file is its own part, so
 * its content runs exactly to the next marker; the last one ends at the newline gemini-cli puts
 * before `--- End of content ---`.
 */
function atFiles(body: string): InlinedFile[] {
  const markers = [...body.matchAll(AT_FILE_MARKER)];
  return markers.map((marker, i) => {
    const start = (marker.index ?? 0) + marker[0].length;
    const next = markers[i + 1]?.index;
    const content = body.slice(start, next ?? body.length);
    return {
      path: marker[1] ?? '',
      content: next === undefined ? content.replace(/\r?\n$/, '') : content,
    };
  });
}

/** Files in the legacy `--- <path> ---` layout; content before the first marker is dropped. */
export function legacyFiles(body: string): InlinedFile[] {
  const files: { path: string; lines: string[] }[] = [];
  for (const line of body.split('\n')) {
    const open = LEGACY_OPEN.exec(line.replace(/\r$/, ''));
    if (open?.[1] !== undefined && line.trim() !== INCLUSION_CLOSE) {
      files.push({ path: open[1].trim(), lines: [] });
    } else files[files.length - 1]?.lines.push(line);
  }
  return files.map((file) => ({
    path: file.path,
    content: file.lines.join('\n').replace(/^\n+/, '').replace(/\n+$/, ''),
  }));
}

export interface MappedInclusions {
  /** The text with the inlined files in our format. */
  readonly text: string;
  readonly files: readonly InlinedFile[];
}

/**
 * A user message's `@` expansion rewritten to one marker pair per file; undefined when the text has
 * no expansion. Text after the closing marker is kept.
 */
export function mapAtExpansion(text: string): MappedInclusions | undefined {
  const headerAt = text.indexOf(REFERENCED_FILES_HEADER);
  if (headerAt === -1) return undefined;
  const bodyStart = headerAt + REFERENCED_FILES_HEADER.length;
  const closeAt = text.lastIndexOf(INCLUSION_CLOSE);
  const bodyEnd = closeAt > bodyStart ? closeAt : text.length;
  const body = text.slice(bodyStart, bodyEnd);
  const files = HAS_AT_FILE_MARKER.test(body) ? atFiles(body) : legacyFiles(body);
  if (files.length === 0) return undefined;
  const prompt = text.slice(0, headerAt).replace(/\s+$/, '');
  const after =
    closeAt > bodyStart ? text.slice(closeAt + INCLUSION_CLOSE.length).replace(/^\s+/, '') : '';
  const parts = [prompt, formatFileInclusions(files), after].filter((part) => part !== '');
  return { text: parts.join('\n'), files };
}

/**
 * Text parts that followed a `read_many_files` response (legacy layout) rewritten to our format;
 * undefined when they hold no `--- <path> ---` file.
 */
export function mapInlinedFileParts(text: string): MappedInclusions | undefined {
  const closeAt = text.lastIndexOf(INCLUSION_CLOSE);
  const files = legacyFiles(closeAt === -1 ? text : text.slice(0, closeAt));
  if (files.length === 0) return undefined;
  return { text: formatFileInclusions(files), files };
}
