/**
 * Builds an importer's `IContent[]` one recorded item at a time. It merges the pieces of one model
 * reply that a format records separately (Claude Code lines sharing `message.id`, OpenHands actions
 * sharing a model response) into one AI entry, even when tool results were recorded between them,
 * and groups consecutive tool results into one tool entry. A call id used a second time is renamed
 * (`id#2`) so calls and responses stay linked one-to-one; a result is linked by position (the
 * nearest earlier unanswered call with its recorded id, see `ToolCallMatcher`); a result for a
 * call never recorded is refused.
 */
import {
  textBlock,
  toolResponseBlock,
  type ContentBlock,
  type ContentMetadata,
  type IContent,
  type Speaker,
  type ToolCallBlock,
} from '../services/history/IContent.js';
import { ToolCallMatcher } from '../services/history/toolCallPairing.js';

interface DraftEntry {
  readonly speaker: Speaker;
  readonly blocks: ContentBlock[];
  metadata?: ContentMetadata;
  readonly groupKey?: string;
}

export interface AiOptions {
  /** Pieces with the same key (e.g. a provider message id) go into one AI entry. */
  readonly groupKey?: string;
  readonly metadata?: ContentMetadata;
}

export interface ToolResult {
  readonly callId: string;
  readonly result: unknown;
  readonly error?: string;
  /** Defaults to the canonical name of the call with this id. */
  readonly toolName?: string;
}

function isBlank(block: ContentBlock): boolean {
  return (
    (block.type === 'text' && block.text.trim() === '') ||
    (block.type === 'thinking' && block.thought.trim() === '')
  );
}

export class ContentAccumulator {
  private readonly drafts: DraftEntry[] = [];
  private openAi: number | undefined;
  private readonly callNames = new Map<string, string>();
  /** Recorded call id → the id it was given here (differs only for reused ids), by position. */
  private readonly matcher = new ToolCallMatcher<string>();

  constructor(private readonly includeThinking = false) {}

  /** A human entry; blank text is dropped. */
  human(blocks: readonly ContentBlock[] | string, metadata?: ContentMetadata): void {
    const list = (typeof blocks === 'string' ? [textBlock(blocks)] : blocks).filter(
      (block) => !isBlank(block),
    );
    this.openAi = undefined;
    if (list.length === 0) return;
    this.drafts.push({ speaker: 'human', blocks: [...list], ...(metadata ? { metadata } : {}) });
  }

  /** AI blocks: a new entry, or more of the open entry with the same `groupKey`. */
  ai(blocks: readonly ContentBlock[], options: AiOptions = {}): void {
    const open = this.openAi === undefined ? undefined : this.drafts[this.openAi];
    const joins =
      open !== undefined && options.groupKey !== undefined && open.groupKey === options.groupKey;
    const entry = joins ? (this.openAi ?? this.drafts.length) : this.drafts.length;
    const list = blocks
      .filter((block) => !isBlank(block) && (this.includeThinking || block.type !== 'thinking'))
      .map((block) => (block.type === 'tool_call' ? this.registerCall(block, entry) : block));
    if (list.length === 0) return;
    if (open && joins) {
      open.blocks.push(...list);
      if (options.metadata) open.metadata = { ...open.metadata, ...options.metadata };
      return;
    }
    this.drafts.push({
      speaker: 'ai',
      blocks: [...list],
      ...(options.metadata ? { metadata: options.metadata } : {}),
      ...(options.groupKey !== undefined ? { groupKey: options.groupKey } : {}),
    });
    this.openAi = this.drafts.length - 1;
  }

  private registerCall(block: ToolCallBlock, entry: number): ToolCallBlock {
    let id = block.id;
    for (let n = 2; this.callNames.has(id); n++) id = `${block.id}#${n}`;
    this.callNames.set(id, block.name);
    this.matcher.call(block.id, entry, id);
    return id === block.id ? block : { ...block, id };
  }

  /**
   * A tool result; consecutive results share one tool entry. Returns false (and records nothing)
   * when no call with this id was recorded before.
   */
  toolResponse(input: ToolResult): boolean {
    const callId = this.matcher.answer(input.callId);
    if (callId === undefined) return false;
    const block = toolResponseBlock({
      callId,
      toolName: input.toolName ?? this.callNames.get(callId) ?? 'unknown',
      result: input.result,
      ...(input.error === undefined ? {} : { error: input.error }),
    });
    const last = this.drafts[this.drafts.length - 1];
    if (last?.speaker === 'tool') last.blocks.push(block);
    else this.drafts.push({ speaker: 'tool', blocks: [block] });
    return true;
  }

  /**
   * An entry as recorded (our own session format): nothing merged or dropped. A call id the
   * session already used (a server that reuses ids) is renamed like in the other formats, and
   * responses follow their call by position, so the imported history has unique ids.
   */
  append(entry: IContent): void {
    const index = this.drafts.length;
    let renamed = false;
    const blocks = entry.blocks.map((block): ContentBlock => {
      const linked = this.linkRecorded(block, index);
      renamed ||= linked !== block;
      return linked;
    });
    this.openAi = undefined;
    this.drafts.push({
      speaker: entry.speaker,
      blocks: renamed ? blocks : [...entry.blocks],
      ...(entry.metadata ? { metadata: entry.metadata } : {}),
    });
  }

  private linkRecorded(block: ContentBlock, entry: number): ContentBlock {
    if (block.type === 'tool_call') return this.registerCall(block, entry);
    if (block.type !== 'tool_response') return block;
    const callId = this.matcher.answer(block.callId) ?? block.callId;
    return callId === block.callId ? block : { ...block, callId };
  }

  /** Whether a call with this (recorded) id has been seen. */
  hasCall(callId: string): boolean {
    return this.matcher.has(callId);
  }

  /** Whether a call with this (recorded) id was seen and no result has answered it yet. */
  awaitsAnswer(callId: string): boolean {
    return this.matcher.awaitsAnswer(callId);
  }

  /** The canonical name of the latest call recorded with this id. */
  callName(callId: string): string | undefined {
    const id = this.matcher.latestCall(callId);
    return id === undefined ? undefined : this.callNames.get(id);
  }

  get size(): number {
    return this.drafts.length;
  }

  build(): IContent[] {
    return this.drafts.map((draft) =>
      draft.metadata === undefined
        ? { speaker: draft.speaker, blocks: [...draft.blocks] }
        : { speaker: draft.speaker, blocks: [...draft.blocks], metadata: draft.metadata },
    );
  }
}
