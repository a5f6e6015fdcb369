/**
 * The skills the agent loaded in the turns a compaction removes: the skill file Claude Code's
 * `Skill` tool puts into the conversation (`isSkillText`). A skill is not the user's words, but its
 * rules still bind the agent after the compaction (Claude Code restores the skills it ran after its
 * own compaction, cut short with a note to reload them), so a summary carries each one, newest
 * first: its head, the size of the rest, the recall id of the whole and the advice to load it
 * again. Pure.
 */
import type { IContent } from '../../services/history/IContent.js';
import { isSkillText, SKILL_TOOL } from '../../services/history/clientContext.js';
import { recallIdOfText } from '../../core/compression/recallPointers.js';
import type { RecallEntry } from '../../recall/RecallArchive.js';

export const SKILLS_HEADING =
  'Skills the agent loaded in these turns; their rules still apply (`dense recall <id>` gives a skill whole, or the agent loads it again with its Skill tool):';
/** Characters of a skill's head the section shows. */
export const SKILL_HEAD_CHARS = 1_500;
const LAUNCHING = /^Launching skill: (\S+)/;
/** A skill whose launch the removed turns do not show. */
const UNNAMED = 'a skill';

export interface LoadedSkill {
  readonly name: string;
  readonly text: string;
  readonly id: string;
}

export interface LoadedSkills {
  /** The section ('' when no skill was loaded). */
  readonly text: string;
  /** Each skill's whole text under the id its line names. */
  readonly recall: readonly RecallEntry[];
}

/** The skills loaded in `removed`, newest first, each once (its latest load). */
export function skillsIn(removed: readonly IContent[]): LoadedSkill[] {
  const found = new Map<string, LoadedSkill>();
  let name = UNNAMED;
  for (const entry of removed) {
    for (const [index, block] of entry.blocks.entries()) {
      if (block.type === 'tool_response' && block.toolName === SKILL_TOOL) {
        const result = typeof block.result === 'string' ? block.result : '';
        name = LAUNCHING.exec(result)?.[1] ?? UNNAMED;
      } else if (block.type === 'text' && isSkillText(entry, index)) {
        found.delete(block.text);
        found.set(block.text, { name, text: block.text, id: recallIdOfText('skill', block.text) });
      }
    }
  }
  return [...found.values()].reverse();
}

/** A skill's head: up to `SKILL_HEAD_CHARS`, ended at a line break where one is near. */
function headOf(text: string): string {
  if (text.length <= SKILL_HEAD_CHARS) return text;
  const cut = text.lastIndexOf('\n', SKILL_HEAD_CHARS);
  return text.slice(0, cut > SKILL_HEAD_CHARS / 2 ? cut : SKILL_HEAD_CHARS);
}

function skillBlock(skill: LoadedSkill): string {
  const head = headOf(skill.text);
  const marker = `[skill ${skill.name}, ${skill.text.length.toLocaleString('en-US')} chars; recall id ${skill.id}]`;
  const rest = skill.text.length - head.length;
  if (rest === 0) return `${marker}\n${head}`;
  return `${marker}\n${head}\n[… ${rest.toLocaleString('en-US')} characters more: \`dense recall ${skill.id}\`]`;
}

/** The skills section for `removed`: heads within `budgetChars`, the rest named by id only. */
export function loadedSkills(removed: readonly IContent[], budgetChars: number): LoadedSkills {
  const skills = skillsIn(removed);
  if (skills.length === 0) return { text: '', recall: [] };
  const parts = [SKILLS_HEADING];
  let used = SKILLS_HEADING.length;
  for (const skill of skills) {
    const whole = skillBlock(skill);
    const part =
      used + whole.length + 1 <= budgetChars
        ? whole
        : `[skill ${skill.name}; recall id ${skill.id}]`;
    parts.push(part);
    used += part.length + 1;
  }
  return {
    text: parts.join('\n'),
    recall: skills.map((skill) => ({ id: skill.id, text: skill.text })),
  };
}
