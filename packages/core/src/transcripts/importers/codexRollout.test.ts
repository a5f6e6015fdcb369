import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ToolCallBlock, ToolResponseBlock } from '../../services/history/IContent.js';
import { checkImport } from '../checkImport.js';
import { readFileLines } from '../lineSource.js';
import { toolLinkProblems } from '../toolLinkProblems.js';
import { importCodexRollout, readOutput, shellCommandString } from './codexRollout.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/codex-rollout.jsonl', import.meta.url));

async function load() {
  const session = await importCodexRollout(readFileLines(FIXTURE), { file: FIXTURE });
  const blocks = session.contents.flatMap((entry) => entry.blocks);
  const calls = blocks.filter((b): b is ToolCallBlock => b.type === 'tool_call');
  const responses = blocks.filter((b): b is ToolResponseBlock => b.type === 'tool_response');
  return { session, calls, responses };
}

describe('importCodexRollout', () => {
  it('reads session facts from session_meta and turn_context', async () => {
    const { session } = await load();
    expect(session).toMatchObject({
      format: 'codex',
      sessionId: 'codex-session-1',
      workspaceRoot: '/home/dev/shop',
      model: 'codex-test-model',
    });
  });

  it('keeps shell commands as one run_shell_command string, argv or not', async () => {
    const { calls } = await load();
    expect(calls[0]).toMatchObject({
      id: 'call_cat',
      name: 'run_shell_command',
      description: 'shell',
      parameters: { command: 'cat README.md', cwd: '/home/dev/shop' },
    });
    expect(calls.find((c) => c.id === 'call_rm')?.parameters).toEqual({ command: 'rm -rf build' });
  });

  it('turns one apply_patch into one write call per file, each answered', async () => {
    const { calls, responses } = await load();
    const patch = calls.filter((c) => c.id.startsWith('call_patch#'));
    expect(
      patch.map((c) => [c.id, c.name, (c.parameters as { file_path: string }).file_path]),
    ).toEqual([
      ['call_patch#1', 'write_file', 'docs/usage.md'],
      ['call_patch#2', 'replace', 'README.md'],
      ['call_patch#3', 'delete_file', 'notes.txt'],
    ]);
    expect(patch[1]?.parameters).toMatchObject({
      old_string: '# Shop\nOld intro\nnpm i',
      new_string: '# Shop\nNew intro\nnpm ci',
    });
    expect(responses.filter((r) => r.callId.startsWith('call_patch#'))).toHaveLength(3);
  });

  it('marks non-zero exits, rejected commands and failed patches as errors', async () => {
    const { responses, session } = await load();
    const failed = responses.filter((r) => r.error !== undefined).map((r) => r.callId);
    expect(failed).toEqual(['call_test', 'call_patch2', 'call_rm']);
    expect(session.stats).toMatchObject({ writes: 4, failedWrites: 1 });
    expect(toolLinkProblems(session.contents)).toEqual([]);
  });

  it('ignores the display log and developer messages, and reports bad lines', async () => {
    const { session } = await load();
    expect(session.ignored).toMatchObject({
      'event_msg line (display log)': 1,
      'developer message': 1,
    });
    expect(session.skipped).toEqual([
      { line: 17, reason: "output for unknown call_id 'call_unknown'", kind: 'orphan-result' },
      { line: 18, reason: expect.stringMatching(/^invalid JSON/) as unknown },
    ]);
  });

  it('groups reasoning, when kept, with the calls of the same turn', async () => {
    const session = await importCodexRollout(readFileLines(FIXTURE), {
      file: FIXTURE,
      includeThinking: true,
    });
    expect(session.contents[1]?.blocks.map((b) => b.type)).toEqual(['thinking', 'tool_call']);
  });

  it('reads older rollouts whose lines are bare items', async () => {
    const lines = [
      JSON.stringify({ id: 'old-1', timestamp: '2025-05-01T00:00:00Z', instructions: '' }),
      JSON.stringify({
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'hi' }],
      }),
      JSON.stringify({
        type: 'local_shell_call',
        call_id: 'l1',
        status: 'completed',
        action: { type: 'exec', command: ['ls', '-la', 'my dir'] },
      }),
      JSON.stringify({
        type: 'function_call_output',
        call_id: 'l1',
        output: '{"output":"x","metadata":{"exit_code":0}}',
      }),
    ];
    const session = await importCodexRollout(lines, { file: 'old.jsonl' });
    expect(session.sessionId).toBe('old-1');
    expect(session.contents[1]?.blocks[0]).toMatchObject({
      name: 'run_shell_command',
      parameters: { command: "ls -la 'my dir'" },
    });
    expect(session.contents[2]?.blocks[0]).toMatchObject({ result: 'x' });
  });
});

describe('shellCommandString', () => {
  it.each([
    ['ls', 'ls'],
    [['bash', '-lc', 'echo a && echo b'], 'echo a && echo b'],
    [['/bin/zsh', '-c', 'pwd'], 'pwd'],
    [['git', 'commit', '-m', "it's done"], "git commit -m 'it'\\''s done'"],
    [[1, 2], undefined],
  ])('%j → %j', (command, expected) => {
    expect(shellCommandString(command)).toBe(expected);
  });
});

describe('readOutput', () => {
  it.each([
    ['Exit code: 0\nOutput:\nok', undefined, false],
    ['Exit code: 2\nOutput:\nbad', undefined, true],
    ['{"output":"Success.","metadata":{"exit_code":0}}', 'replace', false],
    ['{"output":"boom","metadata":{"exit_code":1}}', 'replace', true],
    ['error: patch did not apply', 'replace', true],
    ['error: this is just output', 'run_shell_command', false],
    [{ content: 'x', success: false }, undefined, true],
  ])('%j (%s) failed=%s', (output, tool, failed) => {
    expect(readOutput(output, tool).failed).toBe(failed);
  });
});

describe('importCodexRollout: the calls the file holds', () => {
  it('#22.17 counts replies (runs of model items) and call items, before patches are split', async () => {
    const { session } = await load();
    expect(session.recorded).toEqual({ modelCalls: 6, toolCalls: 5 });
    expect(session.stats).toMatchObject({ aiEntries: 6, toolCalls: 7 });
  });

  it('#22.17 flags call items of a type the mapping does not read', async () => {
    const item = (payload: object): string => JSON.stringify({ type: 'response_item', payload });
    const lines = [
      item({ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Go.' }] }),
      ...[1, 2, 3].flatMap((step) => [
        item({
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: `Step ${step}.` }],
        }),
        item({ type: 'mcp_tool_call', call_id: `m${step}`, name: 'fetch', arguments: '{}' }),
        item({ type: 'mcp_tool_call_output', call_id: `m${step}`, output: 'ok' }),
      ]),
    ];
    const session = await importCodexRollout(lines, { file: 'odd.jsonl' });
    expect(session.stats).toMatchObject({ aiEntries: 1, toolCalls: 0 });
    expect(session.recorded).toEqual({ modelCalls: 3, toolCalls: 3 });
    expect(checkImport(session)).toMatchObject({ kind: 'calls-missing' });
  });
});
