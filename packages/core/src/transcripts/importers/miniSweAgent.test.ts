import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { toolLinkProblems } from '../toolLinkProblems.js';
import { importMiniSweAgent, isFailedObservation, splitMiniAction } from './miniSweAgent.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/mini-swe-agent.traj.json', import.meta.url));

describe('importMiniSweAgent', () => {
  const session = importMiniSweAgent(JSON.parse(readFileSync(FIXTURE, 'utf8')), { file: FIXTURE });

  it('makes each single-action reply one run_shell_command call and links its observation', () => {
    expect(session.contents.map((e) => e.speaker)).toEqual([
      'human',
      'ai',
      'tool',
      'ai',
      'human',
      'ai',
      'tool',
      'ai',
      'tool',
    ]);
    expect(session.contents[1]?.blocks).toEqual([
      { type: 'text', text: 'THOUGHT: Look at the file.' },
      {
        type: 'tool_call',
        id: 'mini-step-0',
        name: 'run_shell_command',
        parameters: { command: "nl -ba calc.py | sed -n '1,20p'" },
        description: 'bash',
      },
    ]);
    expect(toolLinkProblems(session.contents)).toEqual([]);
  });

  it('leaves a reply with two actions as text, followed by the format error as a human message', () => {
    expect(session.contents[3]?.blocks.map((b) => b.type)).toEqual(['text']);
    expect(session.contents[4]?.speaker).toBe('human');
  });

  it('marks non-zero return codes as errors; counts shell reads and writes', () => {
    expect(session.stats).toMatchObject({
      toolCalls: 3,
      failedToolResponses: 1,
      shellReads: 1,
      shellWrites: 1,
    });
    expect(session).toMatchObject({
      workspaceRoot: '/testbed',
      model: 'mini-test-model',
      sessionId: 'demo__calc-7',
    });
  });
});

describe('mini-swe-agent protocol helpers', () => {
  it('needs exactly one bash block', () => {
    expect(splitMiniAction('T\n```bash\nls\n```')).toEqual({ thought: 'T', action: 'ls' });
    expect(splitMiniAction('T')).toEqual({ thought: 'T' });
  });

  it.each([
    ['<returncode>0</returncode>\n<output>x</output>', false],
    ['<returncode>2</returncode>', true],
    ['The last command <command>sleep 99</command> timed out and has been killed.', true],
    ['diff --git a/x b/x', false],
  ])('%j failed=%s', (text, failed) => {
    expect(isFailedObservation(text)).toBe(failed);
  });
});

describe('importMiniSweAgent: 2.x native tool calls', () => {
  const FIXTURE2 = fileURLToPath(new URL('../fixtures/mini-swe-agent2.traj.json', import.meta.url));
  const document: unknown = JSON.parse(readFileSync(FIXTURE2, 'utf8'));

  it('#22.15 imports native tool_calls and role "tool" answers of a reasoning model', () => {
    const session = importMiniSweAgent(document, { file: FIXTURE2 });
    expect(session.stats).toMatchObject({
      aiEntries: 4,
      toolCalls: 4,
      toolResponses: 3,
      unansweredCalls: 1,
      failedToolResponses: 1,
      shellReads: 1,
    });
    expect(session.contents[1]?.blocks).toEqual([
      {
        type: 'tool_call',
        id: 'call_0',
        name: 'run_shell_command',
        parameters: { command: 'cat calc.py' },
        description: 'bash',
      },
    ]);
    expect(session.recorded).toEqual({ modelCalls: 4, toolCalls: 4 });
    expect(session.skipped).toEqual([]);
    expect(session.ignored).toEqual({ 'system prompt': 1, 'exit message': 1 });
    expect(toolLinkProblems(session.contents)).toEqual([]);
  });

  it('#22.15 keeps reasoning_content as thinking only when asked', () => {
    const session = importMiniSweAgent(document, { file: FIXTURE2, includeThinking: true });
    expect(session.contents[1]?.blocks.map((block) => block.type)).toEqual([
      'thinking',
      'tool_call',
    ]);
    expect(session.contents[1]?.blocks[0]).toEqual({
      type: 'thinking',
      thought: 'Look at calc.py first.',
    });
  });

  it('#22.15 skips a tool message that names no earlier call', () => {
    const session = importMiniSweAgent(
      { messages: [{ role: 'tool', tool_call_id: 'nope', content: 'x' }] },
      { file: 't.json' },
    );
    expect(session.skipped).toEqual([
      {
        path: '$.messages[0]',
        reason: "tool message for unknown tool_call_id 'nope'",
        kind: 'orphan-result',
      },
    ]);
  });
});

describe('importMiniSweAgent: the calls the file holds', () => {
  it('#22.17 counts an action only in a reply with exactly one bash block, as the agent runs it', () => {
    const fence = (command: string): string => `\`\`\`bash\n${command}\n\`\`\``;
    const messages = [
      { role: 'user', content: 'Fix it.' },
      { role: 'assistant', content: `Two at once.\n${fence('ls')}\n${fence('pwd')}` },
      { role: 'user', content: 'Please always provide EXACTLY ONE action in triple backticks.' },
      { role: 'assistant', content: `One.\n${fence('ls')}` },
      { role: 'user', content: '<returncode>0</returncode>\n<output>\nsrc\n</output>' },
    ];
    const session = importMiniSweAgent({ messages }, { file: 'two.traj.json' });
    expect(session.stats).toMatchObject({ aiEntries: 2, toolCalls: 1 });
    expect(session.recorded).toEqual({ modelCalls: 2, toolCalls: 1 });
  });
});
