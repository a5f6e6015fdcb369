/**
 * What the conversation view shows, as a pure reducer over the turn's events. Items become final
 * (user messages, notices, finished replies, finished tools) and move from `live` to `done` in
 * order; the view prints `done` once (ink's Static) and re-renders only `live`.
 */
import type { ChatEvent, ContextReport, DensityPassSwitches, ToolCallBlock } from '@dense/core';
import type { OutputLine } from '../commands/types.js';
import type { IncludedFile } from '../at/expandAtReferences.js';
import type { PromptTokens } from '../format/contextExtraLines.js';
import {
  toolCallTarget,
  toolOutcome,
  toolResultLine,
  type ToolOutcome,
} from '../format/describeToolCall.js';

export type ToolStatus = 'running' | ToolOutcome;

export type ConversationItem =
  | {
      readonly kind: 'user';
      readonly id: number;
      readonly text: string;
      readonly included: readonly IncludedFile[];
    }
  | {
      readonly kind: 'assistant';
      readonly id: number;
      readonly text: string;
      readonly done: boolean;
      /** The turn failed or was cancelled mid-reply: this text never reached the history. */
      readonly discarded?: boolean;
    }
  | {
      readonly kind: 'tool';
      readonly id: number;
      readonly callId: string;
      readonly name: string;
      readonly target: string;
      readonly status: ToolStatus;
      readonly detail?: string;
    }
  | { readonly kind: 'lines'; readonly id: number; readonly lines: readonly OutputLine[] }
  | {
      readonly kind: 'context';
      readonly id: number;
      readonly report: ContextReport;
      readonly switches: DensityPassSwitches;
      readonly prompt?: PromptTokens;
      readonly workspaceRoot?: string;
    };

/** An item as callers add it: the id is assigned here. */
export type NewItem = ConversationItem extends infer I
  ? I extends { readonly id: number }
    ? Omit<I, 'id'>
    : never
  : never;

export interface Conversation {
  readonly done: readonly ConversationItem[];
  readonly live: readonly ConversationItem[];
  readonly nextId: number;
}

export const EMPTY_CONVERSATION: Conversation = { done: [], live: [], nextId: 1 };

function isFinal(item: ConversationItem): boolean {
  if (item.kind === 'assistant') return item.done;
  if (item.kind === 'tool') return item.status !== 'running';
  return true;
}

/** Moves the leading final items of `live` to `done`. */
function flush(conversation: Conversation): Conversation {
  let cut = 0;
  while (cut < conversation.live.length && isFinal(conversation.live[cut] as ConversationItem))
    cut++;
  if (cut === 0) return conversation;
  return {
    ...conversation,
    done: [...conversation.done, ...conversation.live.slice(0, cut)],
    live: conversation.live.slice(cut),
  };
}

export function addItem(conversation: Conversation, item: NewItem): Conversation {
  const withId = { ...item, id: conversation.nextId } as ConversationItem;
  return flush({
    ...conversation,
    live: [...conversation.live, withId],
    nextId: conversation.nextId + 1,
  });
}

function mapLive(
  conversation: Conversation,
  update: (item: ConversationItem) => ConversationItem,
): Conversation {
  return flush({ ...conversation, live: conversation.live.map(update) });
}

/** Marks the streaming reply (if any) finished. */
function closeReply(conversation: Conversation): Conversation {
  return mapLive(conversation, (item) =>
    item.kind === 'assistant' && !item.done ? { ...item, done: true } : item,
  );
}

function appendText(conversation: Conversation, text: string): Conversation {
  const last = conversation.live.at(-1);
  if (last?.kind === 'assistant' && !last.done) {
    return {
      ...conversation,
      live: [...conversation.live.slice(0, -1), { ...last, text: last.text + text }],
    };
  }
  return addItem(conversation, { kind: 'assistant', text, done: false });
}

function startTool(conversation: Conversation, call: ToolCallBlock): Conversation {
  const closed = closeReply(conversation);
  return addItem(closed, {
    kind: 'tool',
    callId: call.id,
    name: call.name,
    target: toolCallTarget(call),
    status: 'running',
  });
}

/** Folds one event of the running turn into the view. `user_message` is shown by the caller. */
export function applyChatEvent(conversation: Conversation, event: ChatEvent): Conversation {
  switch (event.type) {
    case 'text_delta':
      return event.text === '' ? conversation : appendText(conversation, event.text);
    case 'tool_call':
      return startTool(conversation, event.call);
    case 'tool_result': {
      // Only the first running call with this id: a server may give parallel calls one id.
      let pending = true;
      return mapLive(conversation, (item) => {
        if (!pending || item.kind !== 'tool' || item.callId !== event.call.id) return item;
        if (item.status !== 'running') return item;
        pending = false;
        return {
          ...item,
          status: toolOutcome(event.response),
          detail: toolResultLine(event.response),
        };
      });
    }
    case 'ai_message':
      return closeReply(conversation);
    case 'user_message':
    case 'thinking_delta':
    case 'retry':
      return conversation;
  }
}

/**
 * Ends the turn: the reply is closed and tools that never reported are marked cancelled. After an
 * error or Ctrl-C (`failed`), a reply still streaming is marked discarded.
 */
export function finishTurn(conversation: Conversation, failed = false): Conversation {
  return mapLive(conversation, (item) => {
    if (item.kind === 'assistant' && !item.done) {
      return failed ? { ...item, done: true, discarded: true } : { ...item, done: true };
    }
    if (item.kind === 'tool' && item.status === 'running') return { ...item, status: 'cancelled' };
    return item;
  });
}
