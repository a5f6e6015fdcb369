import { describe, expect, it } from 'vitest';
import { textBlock, type IContent } from '../../services/history/IContent.js';
import { ai, human, toolRoundTrip } from '../../test-utils/historyBuilders.js';
import { SKILL_HEAD_CHARS, SKILLS_HEADING, loadedSkills, skillsIn } from './loadedSkills.js';
import { compactionSummary } from './compactionSummary.js';

/** The Skill tool's call and result, the skill's file sent after the result in the same turn. */
function loadSkill(id: string, name: string, body: string): IContent[] {
  const [call, result] = toolRoundTrip(id, 'Skill', { skill: name }, `Launching skill: ${name}`);
  return [call, { ...result, blocks: [...result.blocks, textBlock(body)] }];
}

const rules = (name: string) =>
  Array.from({ length: 120 }, (_, i) => `- ${name} rule ${i}: check every module twice.`).join(
    '\n',
  );

describe('loadedSkills', () => {
  it('#33.4 finds each skill once, newest first, named by the Skill result', () => {
    const removed = [
      human('Review the parser'),
      ...loadSkill('s1', 'review', '# Review\nold'),
      ...loadSkill('s2', 'plan', '# Plan'),
      ...loadSkill('s3', 'review', '# Review\nold'),
    ];
    expect(skillsIn(removed).map((skill) => [skill.name, skill.text])).toEqual([
      ['review', '# Review\nold'],
      ['plan', '# Plan'],
    ]);
  });

  it('#33.4 shows a long skill as its head with the recall id of the whole; past the budget by id only', () => {
    const removed = [
      ...loadSkill('s1', 'review', rules('review')),
      ...loadSkill('s2', 'plan', rules('plan')),
    ];
    const { text, recall } = loadedSkills(removed, SKILL_HEAD_CHARS + 400);
    expect(text.startsWith(SKILLS_HEADING)).toBe(true);
    const [plan, review] = skillsIn(removed);
    expect(text).toContain(
      `[skill plan, ${plan?.text.length.toLocaleString('en-US')} chars; recall id ${plan?.id}]`,
    );
    expect(text).toContain('plan rule 0:');
    expect(text).not.toContain('plan rule 119:');
    expect(text).toContain(`\`dense recall ${plan?.id}\``);
    expect(text).toContain(`[skill review; recall id ${review?.id}]`);
    expect(text).not.toContain('review rule 0:');
    expect(recall.map((entry) => entry.text)).toEqual([rules('plan'), rules('review')]);
  });

  it("#33.4 a compaction summary carries a loaded skill apart from the user's messages", () => {
    const removed = [
      human('Review the parser; keep the API.'),
      ...loadSkill('s1', 'review', rules('review')),
      ai('Reviewing.'),
    ];
    const { text, recall } = compactionSummary({
      removed,
      history: removed,
      removedRaw: JSON.stringify(removed),
      budgetChars: 40_000,
      purpose: 'working-budget',
    });
    expect(text).toContain('[user message 1 of 1, 32 chars]\nReview the parser; keep the API.');
    expect(text).toContain(SKILLS_HEADING);
    expect(text).not.toContain('review rule 119:');
    expect(recall.some((entry) => entry.text === rules('review'))).toBe(true);
  });
});
