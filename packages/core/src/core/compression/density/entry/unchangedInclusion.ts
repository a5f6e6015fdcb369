/**
 * Append-only density for `@` inclusions: a user message that inlines a file whose
 * inclusion — the same path, byte-identical content — is still in an earlier message of the
 * history gets a one-line note naming that copy instead of the content again. Nothing already
 * sent changes; the alternative, cutting the older copy once the newer arrives (REQ-HD-006),
 * rewrites the cached prompt after it.
 *
 * "Still in the history" is read from the current history: the earlier span must be there in
 * full (a cut copy leaves a note, not the span), it must be the file's latest inclusion (a file
 * changed outside the agent and included again supersedes it), and no call after it may write the
 * file (even a failed or shell write: READ→WRITE could cut that copy later while the note stays).
 * If a later inclusion supersedes the named copy, dedup rewrites the note as it cuts the copy
 * (`inclusionReferences.ts`).
 */
import type { IContent, TextBlock } from '../../../../services/history/IContent.js';
import { findFileInclusions, type FileInclusionSpan } from '../../densityVocabulary.js';
import { humanInclusions } from '../humanInclusions.js';
import { resolveToolPath } from '../toolParameters.js';
import { writesAny } from './unchangedRead.js';

export interface UnchangedInclusionOptions {
  readonly workspaceRoot: string;
}

export const UNCHANGED_NOTE_HEAD = '[@';
export const UNCHANGED_NOTE_TAIL =
  ': unchanged since its copy included in an earlier message — that copy is still above]\n';

/** The line left instead of a repeated inclusion. Never starts with `--- ` (not a marker). */
export function unchangedInclusionNote(filePath: string): string {
  return `${UNCHANGED_NOTE_HEAD}${filePath}${UNCHANGED_NOTE_TAIL}`;
}

/** Inclusion texts (markers included) still whole in `history` whose file nothing wrote since. */
function intactInclusions(
  history: readonly IContent[],
  files: ReadonlySet<string>,
  workspaceRoot: string,
): Set<string> {
  const intact = new Set<string>();
  const written = new Set<string>();
  // Only the latest copy of a file may be named: dedup cuts every older one once a newer exists.
  const seen = new Set<string>();
  for (let i = history.length - 1; i >= 0; i--) {
    const entry = history[i]!;
    for (const block of entry.blocks) {
      if (block.type !== 'tool_call') continue;
      for (const file of files) if (writesAny(block, [file], workspaceRoot)) written.add(file);
    }
    for (const { blockIndex, spans } of humanInclusions(entry)) {
      const text = (entry.blocks[blockIndex] as TextBlock).text;
      for (const span of [...spans].reverse()) {
        const file = resolveToolPath(span.filePath, workspaceRoot);
        // Only the message's own files, only their latest copy, and only if no later call wrote it.
        if (!files.has(file) || seen.has(file)) continue;
        seen.add(file);
        if (!written.has(file)) intact.add(text.slice(span.start, span.end));
      }
    }
  }
  return intact;
}

/** `text` with each span in `doomed` replaced by its note. */
function withNotes(text: string, doomed: readonly FileInclusionSpan[]): string {
  let out = '';
  let at = 0;
  for (const span of doomed) {
    out += text.slice(at, span.start) + unchangedInclusionNote(span.filePath);
    at = span.end;
  }
  return out + text.slice(at);
}

/**
 * The message to record instead of `message`, or `undefined` to record it as it is. Pure: reads
 * `history` (as it is now, without the message) and returns a new entry.
 */
export function unchangedInclusionMessage(
  history: readonly IContent[],
  message: IContent,
  options: UnchangedInclusionOptions,
): IContent | undefined {
  if (message.speaker !== 'human') return undefined;
  const { workspaceRoot } = options;
  const found = message.blocks.map((block) =>
    block.type === 'text' ? findFileInclusions(block.text) : [],
  );
  const files = new Set(found.flat().map((s) => resolveToolPath(s.filePath, workspaceRoot)));
  if (files.size === 0) return undefined;
  const intact = intactInclusions(history, files, workspaceRoot);
  let changed = false;
  const blocks = message.blocks.map((block, index) => {
    if (block.type !== 'text') return block;
    const doomed = found[index]!.filter((span) => {
      const spanText = block.text.slice(span.start, span.end);
      return intact.has(spanText) && spanText.length > unchangedInclusionNote(span.filePath).length;
    });
    if (doomed.length === 0) return block;
    changed = true;
    return { ...block, text: withNotes(block.text, doomed) };
  });
  return changed ? { ...message, blocks } : undefined;
}
