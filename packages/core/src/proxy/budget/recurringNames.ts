/**
 * The names a compaction's removed turns kept showing and the agent itself used: the project's
 * vocabulary (its tables, types, modules' functions). The agent writes code against them long
 * after the reads that showed them, and a turn's line keeps only a few specifics of each read or
 * write, so a name spread over many of them is cut from every one of their lines. A name counts
 * when at least `MIN_TEXTS` removed texts show it (tool outputs, and what the agent wrote with
 * its write calls) and the agent mentioned it in its own text or tool inputs; the most widely
 * shown first (ties: the agent's latest mention first), each once, none the rest of the summary
 * shows, within the room given. Pure.
 */
import type { AgentMentions } from './agentMentions.js';
import type { CondensedOutput } from './condensedOutputs.js';
import { codeNames } from './outputSpecifics.js';

export const RECURRING_HEADING = 'Names these turns showed often and the agent used:';

/** Texts that must show a name for it to count as the project's vocabulary. */
export const MIN_TEXTS = 3;

/** Each text's names, kept with its block: a later compaction of its region reads it again. */
const NAMES = new WeakMap<object, ReadonlySet<string>>();

/** A text names are counted in: a tool output, or what the agent wrote with a tool call. */
export type NamedText = Pick<CondensedOutput, 'text' | 'source'>;

function namesOf(text: NamedText): ReadonlySet<string> {
  const source = text.source;
  if (source === undefined) return codeNames(text.text);
  let names = NAMES.get(source);
  if (names === undefined) {
    names = codeNames(text.text);
    NAMES.set(source, names);
  }
  return names;
}

/**
 * The section naming the vocabulary of `texts` within `room` characters ('' when none fits);
 * `shown`: whether the rest of the summary already shows a name.
 */
export function recurringNames(
  texts: Iterable<NamedText>,
  mentions: AgentMentions,
  room: number,
  shown: (name: string) => boolean,
): string {
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const name of namesOf(text)) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const ranked = [...counts]
    .filter(([name, count]) => count >= MIN_TEXTS && mentions.latest(name) >= 0 && !shown(name))
    .map(([name, count]) => ({ name, count, at: mentions.latest(name) }))
    .sort((a, b) => b.count - a.count || b.at - a.at || (a.name < b.name ? -1 : 1));
  const kept: string[] = [];
  let used = RECURRING_HEADING.length + 1;
  for (const { name } of ranked) {
    if (used + name.length + 1 > room) continue;
    kept.push(name);
    used += name.length + 1;
  }
  return kept.length === 0 ? '' : `${RECURRING_HEADING}\n${kept.join(' ')}`;
}
