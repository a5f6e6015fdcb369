/**
 * Where the agent itself mentioned a token: the names, numbers and paths in its own text and tool
 * inputs, each with the position of its latest mention in the conversation. What the agent
 * re-touched after an output is what it most often uses next, so a condensed output keeps those of
 * its specifics first. Opening a file is not a use of an earlier output that named it (a listing,
 * a search): from then on the agent works from what the read returned, so the inputs of read calls
 * are not mentions. Built from the request being compacted only (what came before it); pure.
 */
import type { IContent } from '../../services/history/IContent.js';
import { toolKindOf } from '../../core/compression/density/compress/toolSummaryFacts.js';

/** Whole words (names, numbers). */
const WORD = /[\w$]+/g;
/** Path-like runs (`src/db/mod.rs`, `@/lib/store`). */
const PATH = /[\w@.~-]*\/[\w@.~/-]+/g;

export interface AgentMentions {
  /** The position of the agent's latest mention of `token` (-1: none). */
  readonly latest: (token: string) => number;
}

function agentText(entry: IContent): string {
  const parts: string[] = [];
  for (const block of entry.blocks) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'tool_call' && toolKindOf(block.name, block.parameters) !== 'read') {
      parts.push(JSON.stringify(block.parameters ?? null));
    }
  }
  return parts.join('\n');
}

/** The latest position at which the agent (the `ai` speaker) mentioned each token of `history`. */
export function agentMentions(history: readonly IContent[]): AgentMentions {
  const latest = new Map<string, number>();
  history.forEach((entry, position) => {
    if (entry.speaker !== 'ai') return;
    const text = agentText(entry);
    for (const pattern of [WORD, PATH]) {
      for (const match of text.matchAll(pattern)) {
        const token = match[0].replace(/[./-]+$/, '');
        if (token.length >= 3) latest.set(token, position);
      }
    }
  });
  return {
    latest: (token) => latest.get(token) ?? -1,
  };
}
