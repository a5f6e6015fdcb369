import { describe, expect, it } from 'vitest';
import { ai, human, toolCall, toolResult } from '../test-utils/historyBuilders.js';
import { toolLinkProblems } from './toolLinkProblems.js';

describe('toolLinkProblems', () => {
  it('accepts a well-linked history', () => {
    const history = [
      human('hi'),
      toolCall({ id: 'a', name: 'read_file' }),
      toolResult({ id: 'a', name: 'read_file', result: 'x' }),
      ai('done'),
    ];
    expect(toolLinkProblems(history)).toEqual([]);
  });

  it('reports duplicate ids, orphans, double answers, name mismatches and mixed entries', () => {
    const history = [
      toolCall({ id: 'a', name: 'read_file' }),
      toolCall({ id: 'a', name: 'read_file' }),
      toolResult([
        { id: 'a', name: 'read_file' },
        { id: 'a', name: 'read_file' },
      ]),
      toolResult({ id: 'ghost', name: 'x' }),
      toolResult({ id: 'a', name: 'write_file' }),
      { speaker: 'tool' as const, blocks: [{ type: 'text' as const, text: 'stray' }] },
    ];
    const problems = toolLinkProblems(history).join('\n');
    expect(problems).toMatch(/used twice/);
    expect(problems).toMatch(/answered twice/);
    expect(problems).toMatch(/'ghost' has no earlier call/);
    expect(problems).toMatch(/names 'write_file'/);
    expect(problems).toMatch(/tool entry holds a text block/);
  });
});
