/**
 * The provider-neutral content model every part of Dense speaks: one `IContent` per history entry,
 * made of typed blocks. Entries are immutable values — code that changes an entry builds a new one —
 * which is what lets the history cache token counts by entry identity.
 */

export type Speaker = 'human' | 'ai' | 'tool';

export interface TextBlock {
  readonly type: 'text';
  readonly text: string;
}

export interface ToolCallBlock {
  readonly type: 'tool_call';
  /** Provider-assigned call id; a tool_response refers to it through `callId`. */
  readonly id: string;
  readonly name: string;
  /** Whatever the model sent. Never trust its shape: it may not even be an object. */
  readonly parameters: unknown;
  readonly description?: string;
}

export interface ToolResponseBlock {
  readonly type: 'tool_response';
  readonly callId: string;
  readonly toolName: string;
  readonly result: unknown;
  /** Present when the tool failed; the message the model sees. */
  readonly error?: string;
  readonly isComplete?: boolean;
  /**
   * Present on a density reply only (the field that holds the reply, `error` when set, else
   * `result`, names earlier text instead of repeating it): the tool's own output, byte for byte.
   * Never sent to a model; recall and the expansion of a reply whose referent is gone read it.
   */
  readonly original?: string;
}

export interface MediaBlock {
  readonly type: 'media';
  readonly mimeType: string;
  readonly data: string;
  readonly encoding: 'url' | 'base64';
  readonly caption?: string;
  readonly filename?: string;
}

export interface ThinkingBlock {
  readonly type: 'thinking';
  readonly thought: string;
  readonly signature?: string;
}

export interface CodeBlock {
  readonly type: 'code';
  readonly code: string;
  readonly language?: string;
}

export type ContentBlock =
  TextBlock | ToolCallBlock | ToolResponseBlock | MediaBlock | ThinkingBlock | CodeBlock;

export type ContentBlockType = ContentBlock['type'];

export interface UsageStats {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
  /** Prompt tokens served from the provider's prompt cache, when the API reports them. */
  readonly cachedTokens?: number;
}

export interface ContentMetadata {
  readonly id?: string;
  readonly timestamp?: number;
  readonly model?: string;
  readonly provider?: string;
  readonly usage?: UsageStats;
  /** The entry is a compression summary standing in for older history. */
  readonly isSummary?: boolean;
  /** The entry was made by Dense, not said by the user or the model. */
  readonly synthetic?: boolean;
  readonly reason?: string;
  /** A wire instruction message's role (`system`, `developer`): an instruction, not a turn. */
  readonly wireRole?: string;
  readonly [key: string]: unknown;
}

export interface IContent {
  readonly speaker: Speaker;
  readonly blocks: readonly ContentBlock[];
  readonly metadata?: ContentMetadata;
}

export function textBlock(text: string): TextBlock {
  return { type: 'text', text };
}

export function toolCallBlock(
  id: string,
  name: string,
  parameters: unknown,
  description?: string,
): ToolCallBlock {
  return description === undefined
    ? { type: 'tool_call', id, name, parameters }
    : { type: 'tool_call', id, name, parameters, description };
}

export interface ToolResponseInput {
  readonly callId: string;
  readonly toolName: string;
  readonly result: unknown;
  readonly error?: string;
}

export function toolResponseBlock(input: ToolResponseInput): ToolResponseBlock {
  const block: ToolResponseBlock = {
    type: 'tool_response',
    callId: input.callId,
    toolName: input.toolName,
    result: input.result,
  };
  return input.error === undefined ? block : { ...block, error: input.error };
}

function withMetadata(content: IContent, metadata: ContentMetadata | undefined): IContent {
  return metadata === undefined ? content : { ...content, metadata };
}

export function createUserMessage(text: string, metadata?: ContentMetadata): IContent {
  return withMetadata({ speaker: 'human', blocks: [textBlock(text)] }, metadata);
}

export function createAiMessage(
  blocks: readonly ContentBlock[] | string,
  metadata?: ContentMetadata,
): IContent {
  const list = typeof blocks === 'string' ? [textBlock(blocks)] : blocks;
  return withMetadata({ speaker: 'ai', blocks: list }, metadata);
}

/** An AI entry that calls one tool (optionally after some text). */
export function createToolCallMessage(
  call: { readonly id: string; readonly name: string; readonly parameters: unknown },
  text?: string,
): IContent {
  const blocks: ContentBlock[] = text === undefined ? [] : [textBlock(text)];
  blocks.push(toolCallBlock(call.id, call.name, call.parameters));
  return { speaker: 'ai', blocks };
}

export function createToolResponse(
  input: ToolResponseInput | readonly ToolResponseInput[],
  metadata?: ContentMetadata,
): IContent {
  const inputs: readonly ToolResponseInput[] = isInputList(input) ? input : [input];
  return withMetadata({ speaker: 'tool', blocks: inputs.map(toolResponseBlock) }, metadata);
}

function isInputList(
  input: ToolResponseInput | readonly ToolResponseInput[],
): input is readonly ToolResponseInput[] {
  return Array.isArray(input);
}

/** The tool calls among `entries`, by call id (a later call with the same id wins). */
export function toolCallsById(entries: readonly IContent[]): Map<string, ToolCallBlock> {
  const calls = new Map<string, ToolCallBlock>();
  for (const entry of entries) {
    for (const block of entry.blocks) if (block.type === 'tool_call') calls.set(block.id, block);
  }
  return calls;
}

export function isTextBlock(block: ContentBlock): block is TextBlock {
  return block.type === 'text';
}

export function isToolCallBlock(block: ContentBlock): block is ToolCallBlock {
  return block.type === 'tool_call';
}

export function isToolResponseBlock(block: ContentBlock): block is ToolResponseBlock {
  return block.type === 'tool_response';
}

/** An AI entry with nothing a model would see: no blocks, or only blank text. */
export function isEmptyAiEntry(content: IContent): boolean {
  return (
    content.speaker === 'ai' &&
    content.blocks.every((block) => block.type === 'text' && block.text.trim() === '')
  );
}

/** All text of an entry's text blocks, joined by newlines. */
export function getText(content: IContent): string {
  return content.blocks
    .filter(isTextBlock)
    .map((block) => block.text)
    .join('\n');
}
