import { describe, expect, it } from 'vitest';
import { densifyRequest } from '../densify/densifyRequest.js';
import { usersMessages } from '../../core/compression/pinnedUserMessages.js';
import {
  densifyOptions,
  FILE_TEXT,
  readOpenAIHistory,
  toolOutputs as outputs,
  WHOLE_POINTER_JSON,
} from '../test-utils/wireRequests.js';

type Json = Record<string, unknown>;

/** One tool turn as Qwen Code 0.24 sends it: the result is a list of text parts. */
function qwenTurn(id: string, name: string, args: Json, output: string): Json[] {
  return [
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id, type: 'function', function: { name, arguments: JSON.stringify(args) } }],
    },
    { role: 'tool', tool_call_id: id, content: [{ type: 'text', text: output }] },
  ];
}

const FILE = '/w/a.ts';
const EDIT = { file_path: FILE, old_string: 'const v0 = 0;', new_string: 'const w0 = 0;' };
const steps = {
  read: qwenTurn('r1', 'read_file', { file_path: FILE }, FILE_TEXT),
  editFailed: qwenTurn(
    'e1',
    'edit',
    EDIT,
    `Failed to edit, 0 occurrences found for old_string in ${FILE}. No edits made.`,
  ),
  edited: qwenTurn(
    'e1',
    'edit',
    EDIT,
    `The file: ${FILE} has been updated. Showing lines 1-3 of 40 from the edited file:`,
  ),
  readAgain: qwenTurn('r2', 'read_file', { file_path: FILE }, `${FILE_TEXT}\n// edited`),
};

function body(turns: readonly Json[]): string {
  const user = { role: 'user', content: [{ type: 'text', text: 'edit a.ts' }] };
  const messages = [{ role: 'system', content: 'You are a test.' }, user, ...turns];
  return JSON.stringify({ model: 'qwen-test', messages, stream: true });
}

function densify(text: string) {
  return densifyRequest(densifyOptions(text, { api: 'openai-chat', sessionId: undefined }));
}

describe("readOpenAIRequest: Qwen Code's tools over Chat Completions", () => {
  it('#24.3 read_file is a read, edit a replace, a "Failed to edit" result an error', () => {
    const text = body([...steps.read, ...steps.editFailed]);
    const wire = readOpenAIHistory(text, 'openai-chat');
    const blocks = wire.history.slice(2).flatMap((entry) => entry.blocks);
    const calls = blocks.filter((block) => block.type === 'tool_call');
    expect(calls).toMatchObject([
      { id: 'r1', name: 'read_file', parameters: { file_path: FILE } },
      { id: 'e1', name: 'replace', parameters: EDIT },
    ]);
    const responses = blocks.filter((block) => block.type === 'tool_response');
    expect(responses[0]).not.toHaveProperty('error');
    expect(responses[1]).toMatchObject({ callId: 'e1', toolName: 'replace' });
    expect(responses[1]).toHaveProperty('error');
  });
});

describe('conversation identity over Chat Completions (#34.5)', () => {
  const request = (first: string) =>
    JSON.stringify({
      model: 'qwen-test',
      messages: [
        { role: 'system', content: 'You are Qwen Code in /w.' },
        { role: 'user', content: first },
      ],
    });

  it('#34.5 two sessions of one project (same system message) are two conversations', () => {
    const a = readOpenAIHistory(request('Fix the login form.'), 'openai-chat');
    const b = readOpenAIHistory(request('Add a dark mode.'), 'openai-chat');
    expect(a.identity).not.toBe(b.identity);
    expect(readOpenAIHistory(request('Fix the login form.'), 'openai-chat').identity).toBe(
      a.identity,
    );
  });

  it("#34.5 the system message is an instruction, not the user's words", () => {
    const wire = readOpenAIHistory(request('Fix the login form.'), 'openai-chat');
    expect(wire.history[0]?.metadata).toEqual({ wireRole: 'system' });
    expect(usersMessages(wire.history[0]!)).toEqual([]);
    expect(usersMessages(wire.history[1]!)).toEqual(['Fix the login form.']);
  });
});

describe('densifyRequest: Qwen Code (read_file, edit, read_file)', () => {
  it('#24.3 after a successful edit the stale read is the pointer; the newest read is intact', () => {
    const result = densify(body([...steps.read, ...steps.edited, ...steps.readAgain]));
    const sent = outputs(result.body.toString());
    expect(result.pointers).toBe(1);
    expect(sent.get('r1')).toMatch(WHOLE_POINTER_JSON);
    expect(sent.get('r2')).toContain('// edited');
  });

  it('#24.3 after a failed edit the read goes out intact, byte for byte', () => {
    const text = body([...steps.read, ...steps.editFailed, ...steps.readAgain]);
    expect(densify(text)).toMatchObject({ pointers: 0 });
    expect(densify(text).body.toString()).toBe(text);
  });
});
