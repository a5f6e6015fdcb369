/**
 * The checks that decide whether gemini-cli's inlined files read unambiguously (see
 * `geminiInclusions.ts`): their markers are plain text a file's own content can imitate.
 */
import { INCLUSION_CLOSE } from '../core/compression/densityVocabulary.js';

/** Offsets of the lines that are exactly the closing marker (a CR before the newline allowed). */
export function closingLines(text: string): number[] {
  const offsets: number[] = [];
  let start = 0;
  for (const line of text.split('\n')) {
    if (line.replace(/\r$/, '') === INCLUSION_CLOSE) offsets.push(start);
    start += line.length + 1;
  }
  return offsets;
}

export function hasUniquePaths(files: readonly { readonly path: string }[]): boolean {
  return new Set(files.map((file) => file.path)).size === files.length;
}

/** `@` references of a prompt (`\ ` escapes a space), without trailing punctuation or `./`. */
function atReferences(prompt: string): string[] {
  const refs: string[] = [];
  for (const match of prompt.matchAll(/(?:^|\s)@((?:\\ |[^\s])+)/g)) {
    const ref = (match[1] ?? '')
      .replace(/\\ /g, ' ')
      .replace(/[.,;:!?)'"`]+$/, '')
      .replace(/^\.\//, '')
      .replace(/\/+$/, '');
    if (ref !== '') refs.push(ref);
  }
  return refs;
}

/** The directory a glob walks from (`src/**` → `src`, `*.md` → ``); the path itself otherwise. */
function walkBase(ref: string): string | undefined {
  const glob = ref.search(/[*?[{]/);
  if (glob === -1) return undefined;
  const head = ref.slice(0, glob);
  return head.slice(0, Math.max(0, head.lastIndexOf('/')));
}

/**
 * Whether the prompt asked for a file at `filePath`: an `@` reference names it, a directory or
 * glob it lies in, or (gemini-cli finds a bare name by search) its last path segments.
 */
export function askedForBy(prompt: string): (filePath: string) => boolean {
  const refs = atReferences(prompt);
  return (filePath) => {
    const target = filePath.replace(/^\.\//, '');
    return refs.some((ref) => {
      const base = walkBase(ref);
      if (base !== undefined) return base === '' || target.startsWith(`${base}/`);
      return target === ref || target.startsWith(`${ref}/`) || target.endsWith(`/${ref}`);
    });
  };
}
