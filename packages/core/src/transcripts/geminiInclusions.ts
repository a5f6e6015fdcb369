/**
 * Rewrites the file contents gemini-cli inlines into OUR inclusion format (`formatFileInclusion`,
 * one opening and closing marker per file), so the dedup pass sees real files. Two layouts exist:
 * the `@` expansion (`--- Content from referenced files ---`, then `Content from @<path>:` and the
 * file, per file, then `--- End of content ---`) and older `read_many_files` output (`--- <path> ---`
 * before each file and one `--- End of content ---` after the last). The header line is never
 * treated as a file.
 *
 * Those markers are plain text a file's content can imitate, so a block is rewritten only when its
 * reading is unambiguous: exactly one closing line, no text before the first
 * file that would be dropped, no path twice, and (for `@` expansions) every path one the user
 * asked for with an `@` reference. Otherwise the block is left as it is; its markers are then not
 * in our tagged format, so dedup never cuts any of it.
 */
import { INCLUSION_CLOSE, formatFileInclusions } from '../core/compression/densityVocabulary.js';
import { askedForBy, closingLines, hasUniquePaths } from './geminiInclusionChecks.js';

export const REFERENCED_FILES_HEADER = '--- Content from referenced files ---';

export interface InlinedFile {
  readonly path: string;
  readonly content: string;
}

/** The newline after a marker is not consumed, so a marker right after a marker-shaped last line counts. */
const AT_FILE_MARKER = /(?:^|\n)Content from @(.+?):(?=\n)/g;
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
    const start = (marker.index ?? 0) + marker[0].length + 1;
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
  return legacyLayout(body).files;
}

/** The legacy layout's files, and whether any non-blank text came before the first marker. */
function legacyLayout(body: string): { files: InlinedFile[]; leading: boolean } {
  let leading = false;
  const files: { path: string; lines: string[] }[] = [];
  for (const line of body.split('\n')) {
    const open = LEGACY_OPEN.exec(line.replace(/\r$/, ''));
    if (open?.[1] !== undefined && line.trim() !== INCLUSION_CLOSE) {
      files.push({ path: open[1].trim(), lines: [] });
    } else if (files.length > 0) files[files.length - 1]?.lines.push(line);
    else if (line.trim() !== '') leading = true;
  }
  return {
    leading,
    files: files.map((file) => ({
      path: file.path,
      content: file.lines.join('\n').replace(/^\n+/, '').replace(/\n+$/, ''),
    })),
  };
}

export interface MappedInclusions {
  /** The text with the inlined files in our format. */
  readonly text: string;
  readonly files: readonly InlinedFile[];
}

/**
 * A user message's `@` expansion rewritten to one marker pair per file; undefined when the text has
 * no expansion or its reading is ambiguous (see the module comment). Text after the closing
 * marker is kept.
 */
export function mapAtExpansion(text: string): MappedInclusions | undefined {
  const headerAt = text.indexOf(REFERENCED_FILES_HEADER);
  const closers = closingLines(text);
  const closeAt = closers[0] ?? -1;
  const bodyStart = headerAt + REFERENCED_FILES_HEADER.length;
  if (headerAt === -1 || closers.length !== 1 || closeAt < bodyStart) return undefined;
  const body = text.slice(bodyStart, closeAt);
  const layout = HAS_AT_FILE_MARKER.test(body)
    ? { files: atFiles(body), leading: /\S/.test(body.slice(0, body.search(HAS_AT_FILE_MARKER))) }
    : legacyLayout(body);
  const { files } = layout;
  const prompt = text.slice(0, headerAt).replace(/\s+$/, '');
  const asked = askedForBy(prompt);
  if (files.length === 0 || layout.leading || !hasUniquePaths(files)) return undefined;
  if (!files.every((file) => asked(file.path))) return undefined;
  const after = text.slice(closeAt + INCLUSION_CLOSE.length).replace(/^\s+/, '');
  const parts = [prompt, formatFileInclusions(files), after].filter((part) => part !== '');
  return { text: parts.join('\n'), files };
}

/**
 * Text parts that followed a `read_many_files` response (legacy layout) rewritten to our format;
 * undefined when they hold no `--- <path> ---` file or their reading is ambiguous: more than one
 * closing line, text after it or before the first file, a path twice.
 */
export function mapInlinedFileParts(text: string): MappedInclusions | undefined {
  const closers = closingLines(text);
  const closeAt = closers[0] ?? -1;
  if (
    closers.length > 1 ||
    (closeAt !== -1 && /\S/.test(text.slice(closeAt + INCLUSION_CLOSE.length)))
  ) {
    return undefined;
  }
  const { files, leading } = legacyLayout(closeAt === -1 ? text : text.slice(0, closeAt));
  if (files.length === 0 || leading || !hasUniquePaths(files)) return undefined;
  return { text: formatFileInclusions(files), files };
}
