/**
 * Classic Cline: when the context is over budget, every copy of a file's content but the newest
 * (whole-file read results, `@` inclusions, files in multi-file reads) is replaced by a notice,
 * keyed by path and regardless of whether the file changed in between.
 */
import type { ContentBlock, IContent } from '../../services/history/IContent.js';
import {
  findFileInclusions,
  type FileInclusionSpan,
} from '../../core/compression/densityVocabulary.js';
import { cutSpans } from '../../core/compression/density/optimize/inclusionDedup.js';
import { fileAccessOf, responseSucceeded } from '../oracle/fileAccess.js';
import { resolvePathKey } from '../oracle/pathKey.js';

/** What replaces an older read result. */
export const FILE_COPY_NOTICE =
  '[Older copy of this file removed to save context: a newer copy appears later in the conversation]';

/** Cline's context budget for a window: fixed margins for common sizes, else 80% (at most −40k). */
export function clineContextBudget(contextLimit: number): number {
  switch (contextLimit) {
    case 64_000:
      return contextLimit - 27_000;
    case 128_000:
      return contextLimit - 30_000;
    case 200_000:
      return contextLimit - 40_000;
    default:
      return Math.max(contextLimit - 40_000, Math.floor(contextLimit * 0.8));
  }
}

/** One copy of a file: a whole result, or a span of a text (human text or a multi-file result). */
interface Copy {
  readonly key: string;
  readonly entryIndex: number;
  readonly blockIndex: number;
  readonly span?: FileInclusionSpan;
}

function copiesIn(entry: IContent, entryIndex: number, keyOf: (p: string) => string): Copy[] {
  const copies: Copy[] = [];
  entry.blocks.forEach((block, blockIndex) => {
    const text = spanText(entry, block);
    if (text !== undefined) {
      for (const span of findFileInclusions(text)) {
        copies.push({ key: keyOf(span.filePath), entryIndex, blockIndex, span });
      }
    }
  });
  return copies;
}

/** Text that may hold inclusion spans: human text, or a string multi-file read result. */
function spanText(entry: IContent, block: ContentBlock): string | undefined {
  if (entry.speaker === 'human' && block.type === 'text') return block.text;
  if (block.type === 'tool_response' && typeof block.result === 'string') {
    return block.toolName === 'read_many_files' ? block.result : undefined;
  }
  return undefined;
}

function collectCopies(history: readonly IContent[], workspaceRoot: string): Copy[] {
  const keyOf = (p: string) => resolvePathKey(p, workspaceRoot);
  const wholeReads = new Map<string, string>();
  const copies: Copy[] = [];
  history.forEach((entry, entryIndex) => {
    entry.blocks.forEach((block, blockIndex) => {
      if (block.type === 'tool_call') {
        const access = fileAccessOf(block, { shell: false });
        const only = access?.reads.length === 1 && !access.partial ? access.reads[0] : undefined;
        if (only !== undefined && block.name !== 'read_many_files') {
          wholeReads.set(block.id, keyOf(only));
        }
      } else if (block.type === 'tool_response' && responseSucceeded(block)) {
        const key = wholeReads.get(block.callId);
        if (key !== undefined && block.result !== FILE_COPY_NOTICE) {
          copies.push({ key, entryIndex, blockIndex });
        }
      }
    });
    copies.push(...copiesIn(entry, entryIndex, keyOf));
  });
  return copies;
}

/** Replacements removing all but the newest copy of each file (only when over budget). */
export function dedupFileCopies(
  history: readonly IContent[],
  options: { readonly workspaceRoot: string; readonly overBudget: boolean },
): Map<number, IContent> {
  if (!options.overBudget) return new Map();
  const copies = collectCopies(history, options.workspaceRoot);
  const newest = new Map<string, Copy>();
  for (const copy of copies) newest.set(copy.key, copy);
  const doomed = copies.filter((copy) => newest.get(copy.key) !== copy);
  const byEntry = new Map<number, Copy[]>();
  for (const copy of doomed)
    byEntry.set(copy.entryIndex, [...(byEntry.get(copy.entryIndex) ?? []), copy]);
  const replacements = new Map<number, IContent>();
  for (const [entryIndex, entryCopies] of byEntry) {
    const entry = history[entryIndex] as IContent;
    const blocks = entry.blocks.map((block, blockIndex) =>
      editBlock(
        block,
        entryCopies.filter((copy) => copy.blockIndex === blockIndex),
      ),
    );
    if (blocks.some((block, index) => block !== entry.blocks[index])) {
      replacements.set(entryIndex, { ...entry, blocks });
    }
  }
  return replacements;
}

function editBlock(block: ContentBlock, copies: readonly Copy[]): ContentBlock {
  if (copies.length === 0) return block;
  const spans = copies.flatMap((copy) => (copy.span === undefined ? [] : [copy.span]));
  if (spans.length === 0) {
    return block.type === 'tool_response' ? { ...block, result: FILE_COPY_NOTICE } : block;
  }
  if (block.type === 'text') {
    const text = cutSpans(block.text, spans);
    return text === undefined ? block : { ...block, text };
  }
  if (block.type === 'tool_response' && typeof block.result === 'string') {
    const result = cutSpans(block.result, spans);
    return result === undefined ? block : { ...block, result };
  }
  return block;
}
