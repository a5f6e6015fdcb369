/**
 * What Codex keeps of its history when it compacts (docs/clients.md: after its compaction the
 * next request holds the task and the summary): the user's messages, newest first up to about
 * 20,000 tokens (80,000 characters here), in their order; a summary it kept before is not one of
 * them, the messages kept with it are. The bench's Codex client keeps them beside Dense's answer.
 */
import type { IContent } from '@dense/core';

/** Characters of user messages Codex keeps (its cap: ~20,000 tokens). */
export const CODEX_KEPT_USER_CHARS = 80_000;

function userTexts(entry: IContent): string[] {
  if (entry.speaker !== 'human') return [];
  const texts = entry.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : []));
  // A summary entry the client held: its last block is the summary, the others kept messages.
  return entry.metadata?.isSummary === true ? texts.slice(0, -1) : texts;
}

/** The user messages of `history` Codex keeps through a compaction, oldest first. */
export function codexKeptMessages(history: readonly IContent[]): string[] {
  const all = history.flatMap(userTexts).filter((text) => text.trim() !== '');
  const kept: string[] = [];
  let chars = 0;
  for (let i = all.length - 1; i >= 0; i--) {
    const text = all[i] ?? '';
    if (chars + text.length > CODEX_KEPT_USER_CHARS) break;
    kept.unshift(text);
    chars += text.length;
  }
  return kept;
}
