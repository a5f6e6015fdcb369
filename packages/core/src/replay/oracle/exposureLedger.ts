/**
 * The oracle's view of a recorded session, computed once from the recording and shared by every
 * policy: each time a file's content entered the context (an exposure: a read result, a shell
 * read, an `@`/multi-file inclusion) and each successful write, with their positions in the
 * recording. Pure.
 */
import type { ContentBlock, IContent, ToolCallBlock } from '../../services/history/IContent.js';
import { fileAccessOf, responseSucceeded, type FileAccess } from './fileAccess.js';
import { oracleResultText, requestedFiles, showsWindow } from './oracleFacts.js';
import { inlinedFiles } from './oracleInclusions.js';
import { resolvePathKey } from './pathKey.js';

export const EXPOSURE_CATEGORIES = ['reads', 'inclusions', 'shellReads'] as const;

/**
 * `reads`: results of dedicated read tools (`read_many_files` per file); `inclusions`: `@` and
 * multi-file inclusions in human text; `shellReads`: `cat`/`sed -n`/`head`/… output.
 */
export type ExposureCategory = (typeof EXPOSURE_CATEGORIES)[number];

/** Where an exposure lives in the history: a tool response (by call id) or a human text block. */
export type ExposureLocator =
  | { readonly kind: 'response'; readonly callId: string }
  | { readonly kind: 'human'; readonly entryId: string; readonly blockIndex: number };

export interface Exposure {
  readonly id: number;
  readonly category: ExposureCategory;
  /** The file as recorded. */
  readonly filePath: string;
  readonly pathKey: string;
  /** Order in the recording (see `recordingPosition`). */
  readonly position: number;
  /** Only part of the file was shown. */
  readonly partial: boolean;
  /** The content as it appears in the history (the whole result, or one inclusion span). */
  readonly text: string;
  /** The fraction of `text` attributed to this file (a `cat a b` result shows two files). */
  readonly share: number;
  readonly locator: ExposureLocator;
}

export interface FileWrite {
  readonly pathKey: string;
  readonly position: number;
}

export interface ExposureLedger {
  readonly exposures: readonly Exposure[];
  /** Successful writes, in recording order. */
  readonly writes: readonly FileWrite[];
}

export interface LedgerOptions {
  /** Relative paths resolve against this directory. */
  readonly workspaceRoot: string;
}

const BLOCK_SLOTS = 4096;

/** A block's place in the recording: entries in order, blocks in order within an entry. */
export function recordingPosition(entryIndex: number, blockIndex: number): number {
  return entryIndex * BLOCK_SLOTS + Math.min(blockIndex, BLOCK_SLOTS - 1);
}

/** The id replay gives the recorded entry at `index` (in `metadata.id`). */
export function replayEntryId(index: number): string {
  return `replay-${index}`;
}

interface PendingCall {
  readonly call: ToolCallBlock;
  readonly access: FileAccess | undefined;
}

/**
 * Every exposure and successful write of `contents` (entries carrying replay ids, see
 * `replayEntryId`; entries without one are located by their index). A response is linked to the
 * call with its id; failed calls expose and change nothing.
 */
export function buildExposureLedger(
  contents: readonly IContent[],
  options: LedgerOptions,
): ExposureLedger {
  const builder = new LedgerBuilder(options.workspaceRoot);
  const calls = new Map<string, PendingCall>();
  contents.forEach((entry, entryIndex) => {
    entry.blocks.forEach((block, blockIndex) => {
      const position = recordingPosition(entryIndex, blockIndex);
      if (block.type === 'tool_call') {
        calls.set(block.id, { call: block, access: fileAccessOf(block, { shell: true }) });
      } else if (block.type === 'tool_response') {
        const pending = calls.get(block.callId);
        if (pending !== undefined) builder.addResponse(pending, block, position);
      } else if (block.type === 'text' && entry.speaker === 'human') {
        const entryId =
          typeof entry.metadata?.id === 'string' ? entry.metadata.id : replayEntryId(entryIndex);
        builder.addHumanText(block.text, { kind: 'human', entryId, blockIndex }, position);
      }
    });
  });
  return builder.ledger();
}

/** Only part of the file is shown: the call asked for a window, or its result says it shows one. */
function isPartial(call: ToolCallBlock, access: FileAccess | undefined, text: string): boolean {
  if (access === undefined) return false;
  return access.partial || (access.via === 'tool' && showsWindow(call, text));
}

class LedgerBuilder {
  private readonly exposures: Exposure[] = [];
  private readonly writes: FileWrite[] = [];

  constructor(private readonly workspaceRoot: string) {}

  ledger(): ExposureLedger {
    return { exposures: this.exposures, writes: this.writes };
  }

  addResponse(
    pending: PendingCall,
    block: Extract<ContentBlock, { type: 'tool_response' }>,
    position: number,
  ): void {
    const { call, access } = pending;
    if (!responseSucceeded(block)) return;
    for (const target of access?.writes ?? []) {
      this.writes.push({ pathKey: this.key(target), position });
    }
    const text = oracleResultText(block.result);
    if (text.trim() === '') return;
    const locator: ExposureLocator = { kind: 'response', callId: block.callId };
    if (call.name === 'read_many_files' && this.addSpans(call, text, locator, position)) return;
    const reads = access?.reads ?? [];
    const category = access?.via === 'shell' ? 'shellReads' : 'reads';
    const partial = isPartial(call, access, text);
    for (const filePath of reads) {
      const shown = { text, share: 1 / reads.length, partial };
      this.add(category, filePath, shown, locator, position);
    }
  }

  /**
   * One exposure per file of a multi-file result (only the files the call asked for, when it named
   * them); false when it holds no inlined file.
   */
  private addSpans(
    call: ToolCallBlock,
    text: string,
    locator: ExposureLocator,
    position: number,
  ): boolean {
    const spans = inlinedFiles(text, requestedFiles(call));
    for (const span of spans) {
      const shown = { text: text.slice(span.start, span.end), share: 1, partial: false };
      this.add('reads', span.filePath, shown, locator, position);
    }
    return spans.length > 0;
  }

  addHumanText(text: string, locator: ExposureLocator, position: number): void {
    for (const span of inlinedFiles(text)) {
      const shown = { text: text.slice(span.start, span.end), share: 1, partial: false };
      this.add('inclusions', span.filePath, shown, locator, position);
    }
  }

  private add(
    category: ExposureCategory,
    filePath: string,
    shown: { readonly text: string; readonly share: number; readonly partial: boolean },
    locator: ExposureLocator,
    position: number,
  ): void {
    this.exposures.push({
      id: this.exposures.length,
      category,
      filePath,
      pathKey: this.key(filePath),
      position,
      ...shown,
      locator,
    });
  }

  private key(filePath: string): string {
    return resolvePathKey(filePath, this.workspaceRoot);
  }
}
