/**
 * The names a compaction's removed turns kept showing and the agent itself used: the project's
 * vocabulary (its tables, types, modules' functions). The agent writes code against them long
 * after the reads that showed them, and a turn's line keeps only a few specifics of each read or
 * write, so a name spread over many of them is cut from every one of their lines. A name counts
 * when at least `MIN_TEXTS` removed texts show it (tool outputs, and what the agent wrote with
 * its write calls) and the agent mentioned it in its own text or tool inputs; the most widely
 * shown first (ties: the agent's latest mention first), each once, none the rest of the summary
 * shows, within the room given. The names an earlier Dense summary among the removed turns named
 * so (its answer to the client's compaction, which the client keeps in place of those turns) count
 * as if shown that often again, or they would end with that answer. Pure.
 */
import type { IContent, ToolCallBlock } from '../../services/history/IContent.js';
import { isDenseText } from '../../core/compression/denseText.js';
import type { AgentMentions } from './agentMentions.js';
import type { CondensedOutput } from './condensedOutputs.js';
import { codeNames, specificsWithin } from './outputSpecifics.js';

export const RECURRING_HEADING = 'Names these turns showed often and the agent used:';

/** Texts that must show a name for it to count as the project's vocabulary. */
export const MIN_TEXTS = 3;

/** Each text's names, kept with its block: a later compaction of its region reads it again. */
const NAMES = new WeakMap<object, ReadonlySet<string>>();

/** The names of the text `source` stands for, read (`text()`) once per block. */
function namesOf(source: object, text: () => string): ReadonlySet<string> {
  let names = NAMES.get(source);
  if (names === undefined) {
    names = codeNames(text());
    NAMES.set(source, names);
  }
  return names;
}

/** The names the vocabulary sections of the earlier Dense summaries among `removed` named. */
export function carriedVocabulary(removed: readonly IContent[]): Set<string> {
  const names = new Set<string>();
  for (const entry of removed) {
    if (entry.speaker === 'ai') continue;
    for (const block of entry.blocks) {
      if (block.type !== 'text' || !isDenseText(block.text)) continue;
      const from = block.text.indexOf(`${RECURRING_HEADING}\n`);
      if (from < 0) continue;
      const start = from + RECURRING_HEADING.length + 1;
      const end = block.text.indexOf('\n', start);
      const line = block.text.slice(start, end < 0 ? undefined : end);
      for (const name of line.split(' ')) if (name !== '') names.add(name);
    }
  }
  return names;
}

export interface VocabularyInput {
  /** The removed tool outputs (`source`: the block their names are kept with). */
  readonly outputs: Iterable<Pick<CondensedOutput, 'text' | 'source'>>;
  /** The removed write calls: what the agent wrote counts as a text too. */
  readonly writes: Iterable<ToolCallBlock>;
  readonly mentions: AgentMentions;
  /** Characters the section may take, its heading included. */
  readonly room: number;
  /** Whether the rest of the summary already shows a name. */
  readonly shown: (name: string) => boolean;
  /** Names an earlier summary's section named (`carriedVocabulary`). */
  readonly carried?: ReadonlySet<string>;
}

/** The section naming the vocabulary of the removed texts within its room ('' when none fits). */
export function recurringNames(input: VocabularyInput): string {
  const { mentions, carried = new Set<string>() } = input;
  const counts = new Map<string, number>();
  const count = (names: ReadonlySet<string>) => {
    for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  };
  for (const name of carried) counts.set(name, MIN_TEXTS);
  for (const output of input.outputs) {
    const { text } = output;
    count(output.source === undefined ? codeNames(text) : namesOf(output.source, () => text));
  }
  for (const call of input.writes)
    count(namesOf(call, () => JSON.stringify(call.parameters ?? null)));
  const used = (name: string) => carried.has(name) || mentions.latest(name) >= 0;
  const ranked = [...counts]
    .filter(([name, seen]) => seen >= MIN_TEXTS && used(name) && !input.shown(name))
    .map(([name, seen]) => ({ name, seen, at: mentions.latest(name) }))
    .sort((a, b) => b.seen - a.seen || b.at - a.at || (a.name < b.name ? -1 : 1))
    .map(({ name }) => name);
  const kept = specificsWithin(ranked, input.room - RECURRING_HEADING.length - 1);
  return kept === '' ? '' : `${RECURRING_HEADING}\n${kept}`;
}
