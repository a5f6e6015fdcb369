import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ToolCallBlock, ToolResponseBlock } from '../../services/history/IContent.js';
import { checkImport } from '../checkImport.js';
import { readFileLines } from '../lineSource.js';
import { mapIpythonCell, pythonStringArg } from '../openHandsIpython.js';
import { toolLinkProblems } from '../toolLinkProblems.js';
import { importOpenHandsEvents, importOpenHandsOutput } from './openHands.js';

const fixture = (name: string): string =>
  fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));

describe('importOpenHandsEvents', () => {
  const events: unknown = JSON.parse(readFileSync(fixture('openhands-events.json'), 'utf8'));
  const session = importOpenHandsEvents(events, { file: 'events.json' });
  const blocks = session.contents.flatMap((entry) => entry.blocks);

  it('puts actions from one model response into one AI entry with its text', () => {
    expect(session.contents[1]?.blocks).toEqual([
      { type: 'text', text: 'Let me look around and open the config.' },
      {
        type: 'tool_call',
        id: 'tc_ls',
        name: 'run_shell_command',
        parameters: { command: 'ls /workspace/app' },
        description: 'execute_bash',
      },
      {
        type: 'tool_call',
        id: 'tc_view',
        name: 'list_directory',
        parameters: { path: '/workspace/app/src' },
        description: 'str_replace_editor',
      },
    ]);
    expect(toolLinkProblems(session.contents)).toEqual([]);
  });

  it('maps str_replace_editor by command and keeps the failed edit as an error', () => {
    const calls = blocks.filter((b): b is ToolCallBlock => b.type === 'tool_call');
    expect(calls.map((c) => c.name)).toEqual([
      'run_shell_command',
      'list_directory',
      'replace',
      'write_file',
    ]);
    const edit = blocks.find(
      (b): b is ToolResponseBlock => b.type === 'tool_response' && b.callId === 'tc_edit',
    );
    expect(edit?.error).toMatch(/^ERROR:\nNo replacement was performed/);
    expect(session.stats).toMatchObject({ writes: 2, failedWrites: 1 });
  });

  it('turns an error observation that answers no action into a user message', () => {
    expect(session.contents[5]).toEqual({
      speaker: 'human',
      blocks: [{ type: 'text', text: 'Parameter `command` is invalid.' }],
    });
  });

  it('ignores system, state changes; reports non-events; reads the working directory', () => {
    expect(session.ignored).toEqual({ 'system action': 1, 'agent_state_changed observation': 1 });
    expect(session.skipped).toEqual([{ path: '$[13]', reason: 'expected an event object' }]);
    expect(session.workspaceRoot).toBe('/workspace/app');
  });
});

describe('importOpenHandsOutput', () => {
  it('yields one session per line and reports unusable lines', async () => {
    const file = fixture('openhands-output.jsonl');
    const { sessions, invalidLines } = await importOpenHandsOutput(readFileLines(file), { file });
    expect(sessions.map((s) => [s.sessionIndex, s.sessionId, s.model])).toEqual([
      [0, 'demo__app-1', 'legacy-model'],
      [1, 'demo__app-2', 'legacy-model'],
    ]);
    expect(invalidLines).toEqual([
      { line: 3, reason: expect.stringMatching(/^invalid JSON/) as unknown },
      { line: 4, reason: 'expected an object with a history array' },
    ]);
  });

  it('links legacy actions to the observation after them and maps agentskills cells', async () => {
    const file = fixture('openhands-output.jsonl');
    const [session] = (await importOpenHandsOutput(readFileLines(file), { file })).sessions;
    expect(session?.contents[0]).toEqual({
      speaker: 'human',
      blocks: [{ type: 'text', text: 'Make the app say bye.' }],
    });
    const calls = session?.contents
      .flatMap((e) => e.blocks)
      .filter((b): b is ToolCallBlock => b.type === 'tool_call');
    expect(calls?.map((c) => [c.name, c.parameters])).toEqual([
      ['run_shell_command', { command: 'cat /workspace/app.py' }],
      ['read_file', { file_path: '/workspace/app.py' }],
      [
        'replace',
        {
          file_path: '/workspace/app.py',
          old_string: 'print("hello")',
          new_string: 'print("bye")',
        },
      ],
    ]);
    expect(session?.stats).toMatchObject({ failedWrites: 1, shellReads: 1 });
    expect(session?.workspaceRoot).toBe('/workspace');
    expect(toolLinkProblems(session?.contents ?? [])).toEqual([]);
  });
});

describe('mapIpythonCell', () => {
  it.each([
    ["open_file('/a.py')", 'read_file', { file_path: '/a.py' }],
    ['create_file(path="/b.py")', 'write_file', { file_path: '/b.py', content: '' }],
    [
      "append_file('/c.py', 'x')",
      'insert_at_line',
      { file_path: '/c.py', code: "append_file('/c.py', 'x')" },
    ],
    ['x = 1\nprint(x)', 'execute_ipython_cell', { code: 'x = 1\nprint(x)' }],
  ])('%j → %s', (code, name, parameters) => {
    expect(mapIpythonCell(code)).toEqual({ name, parameters });
  });

  it('reads triple-quoted and escaped keyword strings', () => {
    expect(pythonStringArg('f(to_replace="""a\nb""")', 'to_replace')).toBe('a\nb');
    expect(pythonStringArg("f(new_content='it\\'s\\n')", 'new_content')).toBe("it's\n");
    expect(pythonStringArg('f(new_content=value)', 'new_content')).toBeUndefined();
  });
});

describe('OpenHands imports: the calls the file holds', () => {
  it('#22.17 counts model responses and the calls they list, or legacy agent actions', async () => {
    const events: unknown = JSON.parse(readFileSync(fixture('openhands-events.json'), 'utf8'));
    expect(importOpenHandsEvents(events, { file: 'e' }).recorded).toEqual({
      modelCalls: 4,
      toolCalls: 4,
    });
    const file = fixture('openhands-output.jsonl');
    const { sessions } = await importOpenHandsOutput(readFileLines(file), { file });
    expect(sessions.map((session) => session.recorded)).toEqual([
      { modelCalls: 4, toolCalls: 3 },
      { modelCalls: 4, toolCalls: 3 },
    ]);
  });

  it('#22.17 keeps the thought of a legacy finish action as its text', async () => {
    const line = JSON.stringify({
      instance_id: 'legacy',
      history: [
        [{ action: 'message', args: { content: 'Add a license.' } }, { observation: 'null' }],
        [
          { action: 'finish', outputs: {}, thought: 'The license is added.' },
          { observation: 'null' },
        ],
      ],
    });
    const { sessions } = await importOpenHandsOutput([line], { file: 'legacy.jsonl' });
    expect(sessions[0]?.contents[1]).toEqual({
      speaker: 'ai',
      blocks: [{ type: 'text', text: 'The license is added.' }],
    });
  });

  it('#22.17 flags calls a model response lists but no action event carries', () => {
    const response = (id: string, calls: string[]) => ({
      model_response: {
        id,
        choices: [
          {
            message: {
              content: 'Looking around.',
              tool_calls: calls.map((call) => ({
                id: call,
                function: { name: 'execute_bash', arguments: '{"command":"ls"}' },
              })),
            },
          },
        ],
      },
    });
    const events = [
      { id: 1, source: 'user', action: 'message', args: { content: 'Explore.' } },
      {
        id: 2,
        source: 'agent',
        action: 'run',
        args: { command: 'ls' },
        tool_call_metadata: { tool_call_id: 'a', ...response('r1', ['a', 'b', 'c']) },
      },
      { id: 3, source: 'agent', observation: 'run', cause: 2, content: 'src' },
    ];
    const session = importOpenHandsEvents(events, { file: 'odd.json' });
    expect(session.stats).toMatchObject({ aiEntries: 1, toolCalls: 1 });
    expect(session.recorded).toEqual({ modelCalls: 1, toolCalls: 3 });
    expect(checkImport(session)).toMatchObject({ kind: 'calls-missing' });
  });
});
