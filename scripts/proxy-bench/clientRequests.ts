/**
 * An imported session as the sequence of API requests its client made: one request per recorded
 * model call (the history before that call, with the client's breakpoints, at the call's recorded
 * time) and, at each compaction the client recorded, the compaction request (the history up to
 * the boundary plus a summarize instruction, answered by the recorded summary). Pure.
 *
 * A side of the bench that did not compact at a boundary keeps the history from before it; the
 * summary entry of that boundary is left out of what it sends (`compacted` says which boundaries a
 * side compacted at).
 */
import type { IContent, ImportedSession } from '@dense/core';
import {
  CODEX_COMPACTION_MARKER,
  CODEX_TURN_METADATA,
  COMPACTION_MARKER,
  COMPACTION_REMINDER,
  COMPACTION_TASK,
} from '../../packages/core/src/proxy/budget/clientCompactionRequests.js';
import type { MockStreamReply } from '../../packages/core/src/test-utils/mockServer/index.js';
import { claudeSystem, claudeTools, codexInstructions, type PrefixSizes } from './clientPrefix.js';
import { anthropicMessages, claudeToolCall, responsesInput, resultText } from './wireMessages.js';

export type ClientApi = 'anthropic' | 'openai-responses';

type Json = Record<string, unknown>;

/** One recorded point where the client sends something. */
export type ClientEvent =
  | { readonly kind: 'call'; readonly index: number; readonly at: number }
  | { readonly kind: 'compaction'; readonly index: number; readonly at: number };

/** The client's wire API for an imported session, or undefined when the bench cannot replay it. */
export function clientApiOf(session: ImportedSession): ClientApi | undefined {
  if (session.format === 'claude-code') return 'anthropic';
  if (session.format === 'codex') return 'openai-responses';
  return undefined;
}

const isCall = (entry: IContent): boolean =>
  entry.speaker === 'ai' &&
  entry.blocks.some(
    (block) => (block.type === 'text' && block.text.trim() !== '') || block.type === 'tool_call',
  );

/**
 * Every model call and recorded compaction in order, with times: a call's recorded time, else one
 * second after the previous event; a compaction one second after the last call before it.
 */
export function clientEvents(contents: readonly IContent[]): ClientEvent[] {
  const events: ClientEvent[] = [];
  let last = 0;
  let seenContent = false;
  contents.forEach((entry, index) => {
    if (entry.metadata?.isSummary === true) {
      if (seenContent) events.push({ kind: 'compaction', index, at: (last += 1_000) });
      return;
    }
    seenContent = true;
    if (!isCall(entry)) return;
    const recorded = entry.metadata?.timestamp;
    last = typeof recorded === 'number' && recorded >= last ? recorded : last + 1_000;
    events.push({ kind: 'call', index, at: last });
  });
  return events;
}

/**
 * The entries a side had before `index`: from its latest compaction (the summary entry included),
 * without the summaries of boundaries it did not compact at. `summaries`: the summary the side
 * holds at a boundary instead of the recording's — a compaction the recording lacks starts at the
 * newest call it kept, with its summary in front; at a recorded boundary (Dense answered the
 * compaction) it takes the recorded summary's place.
 */
export function historyBefore(
  contents: readonly IContent[],
  index: number,
  compacted: ReadonlySet<number>,
  summaries: ReadonlyMap<number, IContent> = new Map(),
): IContent[] {
  let start = 0;
  for (const boundary of compacted) if (boundary < index && boundary > start) start = boundary;
  const boundaries = new Set(
    clientEvents(contents).flatMap((event) => (event.kind === 'compaction' ? [event.index] : [])),
  );
  const kept = contents
    .slice(start, index)
    .filter((_, i) => !boundaries.has(start + i) || compacted.has(start + i));
  const summary = summaries.get(start);
  if (summary === undefined) return kept;
  return boundaries.has(start) ? [summary, ...kept.slice(1)] : [summary, ...kept];
}

export interface RequestOptions {
  readonly api: ClientApi;
  readonly model: string;
  readonly prefix: PrefixSizes;
}

/**
 * Codex's summarize instruction in the shape the real 0.169 sends (its marker first), appended as
 * the last user message of a request whose turn metadata says `compaction` (docs/clients.md).
 */
export const COMPACTION_INSTRUCTION = `${CODEX_COMPACTION_MARKER} Summarize the whole conversation so far for a continuation: the task, decisions, files touched, open problems and next steps.`;

/** Claude Code's compaction prompt in the real 2.1.331 shape (marker, task, closing reminder). */
export const CLAUDE_COMPACTION_INSTRUCTION = `${COMPACTION_MARKER}\n\n${COMPACTION_TASK}, with the task, decisions, files touched, open problems and next steps.${COMPACTION_REMINDER}`;

/** The request body the client sends with `history` (`compaction`: the summarize request). */
export function clientRequest(
  history: readonly IContent[],
  options: RequestOptions & { readonly compaction?: boolean },
): Json {
  const instruction: IContent[] =
    options.compaction === true
      ? [
          {
            speaker: 'human',
            blocks: [
              {
                type: 'text',
                text:
                  options.api === 'anthropic'
                    ? CLAUDE_COMPACTION_INSTRUCTION
                    : COMPACTION_INSTRUCTION,
              },
            ],
          },
        ]
      : [];
  const entries = [...history, ...instruction];
  if (options.api === 'openai-responses') {
    const kind = options.compaction === true ? 'compaction' : 'turn';
    return {
      model: options.model,
      instructions: codexInstructions(options.prefix),
      input: responsesInput(entries),
      stream: true,
      client_metadata: { [CODEX_TURN_METADATA]: JSON.stringify({ request_kind: kind }) },
    };
  }
  const messages = anthropicMessages(entries);
  const lastBlock = messages.at(-1)?.content;
  // The breakpoint on the newest block, as Claude Code sends it; its compaction prompt is unmarked,
  // the breakpoint stays on the block before it (the conversation's cached prefix).
  const marked = options.compaction === true ? messages.at(-2)?.content : lastBlock;
  if (Array.isArray(marked) && marked.length > 0) {
    const end = marked.length - 1;
    marked[end] = { ...(marked[end] as Json), cache_control: { type: 'ephemeral' } };
  }
  return {
    model: options.model,
    max_tokens: 32_000,
    system: claudeSystem(options.prefix),
    tools: claudeTools(options.prefix),
    messages,
    stream: true,
  };
}

/** The recorded answer to a call (or the summary answering a compaction) as the mock streams it. */
export function recordedReply(entry: IContent, api: ClientApi): MockStreamReply {
  const text: string[] = [];
  const toolCalls: { id: string; name: string; arguments: unknown }[] = [];
  for (const block of entry.blocks) {
    if (block.type === 'text' && block.text.trim() !== '') text.push(block.text);
    if (block.type === 'tool_response') text.push(resultText(block.result));
    if (block.type !== 'tool_call') continue;
    const call =
      api === 'anthropic'
        ? claudeToolCall(block.name, block.parameters)
        : { name: block.name, input: block.parameters };
    toolCalls.push({ id: block.id, name: call.name, arguments: call.input ?? {} });
  }
  return { kind: 'stream', text, toolCalls };
}
