/** What a chat turn emits and may throw, and the small port through which it runs tools. */
import type { ToolSchema } from '../providers/IProvider.js';
import type { RetryNotice } from '../providers/retryPolicy.js';
import type {
  IContent,
  ToolCallBlock,
  ToolResponseBlock,
  UsageStats,
} from '../services/history/IContent.js';
import { DenseError } from '../utils/errors.js';

/** How the chat runs tools. The tools package's registry is adapted to this. */
export interface ToolExecutor {
  schemas(): readonly ToolSchema[];
  /** Never throws for tool failures: they come back as an error response for the model. */
  execute(call: ToolCallBlock, signal: AbortSignal | undefined): Promise<ToolResponseBlock>;
}

export type ChatEvent =
  | { readonly type: 'user_message'; readonly content: IContent }
  | { readonly type: 'text_delta'; readonly text: string }
  | { readonly type: 'thinking_delta'; readonly text: string }
  | { readonly type: 'ai_message'; readonly content: IContent }
  | { readonly type: 'tool_call'; readonly call: ToolCallBlock }
  /** The provider is waiting before retrying a transient failure. */
  | { readonly type: 'retry'; readonly retry: RetryNotice }
  | {
      readonly type: 'tool_result';
      readonly call: ToolCallBlock;
      readonly response: ToolResponseBlock;
    };

export interface TurnSummary {
  /** The text of the model's last reply. */
  readonly text: string;
  readonly modelCalls: number;
  readonly toolCalls: number;
  readonly usage: UsageStats;
}

export interface ChatEvents {
  /** An entry the turn loop added to the history (user message, AI reply, tool results). */
  contentRecorded: { readonly content: IContent };
}

export interface SendOptions {
  readonly signal?: AbortSignal;
  /** Identifies the user prompt this turn serves (logs, compression context). */
  readonly promptId?: string;
}

export class ContextOverflowError extends DenseError {
  readonly code = 'CONTEXT_OVERFLOW';

  constructor(
    /** Tokens the send needs: history + pending message + reserved completion. */
    readonly neededTokens: number,
    readonly contextLimit: number,
    readonly breakdown: {
      readonly history: number;
      readonly pending: number;
      readonly reserve: number;
    },
    /** The message plus the reply reserve exceed the limit on their own: nothing was compressed. */
    readonly messageAloneTooLarge = false,
  ) {
    super(
      messageAloneTooLarge
        ? `This message needs ${breakdown.pending} tokens plus ${breakdown.reserve} reserved for ` +
            `the reply, more than the context limit of ${contextLimit} even with an empty history. ` +
            `Nothing was compressed and the history is unchanged. Shorten the message (or the ` +
            `files it includes), or raise context-limit if the model allows it.`
        : `This message needs ${neededTokens} tokens (history ${breakdown.history} + message ` +
            `${breakdown.pending} + ${breakdown.reserve} reserved for the reply) but the context ` +
            `limit is ${contextLimit}, even after density optimization and compression. Shorten ` +
            `the message, start over with /clear, or raise context-limit if the model allows it.`,
    );
  }
}

export class ChatCancelledError extends DenseError {
  readonly code = 'CHAT_CANCELLED';

  constructor() {
    super('The turn was cancelled; the history keeps every completed step.');
  }
}

export class ChatStepLimitError extends DenseError {
  readonly code = 'CHAT_STEP_LIMIT';

  constructor(readonly limit: number) {
    super(
      `The model made ${limit} calls for one message without finishing; stopped to avoid a loop. ` +
        'Send another message to continue.',
    );
  }
}
