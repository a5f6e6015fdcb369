import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { READ_TOOLS, WRITE_TOOLS } from '../core/compression/densityVocabulary.js';
import { toolCallBlock } from '../services/history/IContent.js';
import { createDefaultToolRegistry, createToolContext } from './createDefaultToolRegistry.js';
import { nodeFileSystem } from './ports/nodeFileSystem.js';
import { defineTool } from './defineTool.js';
import {
  createToolHarness,
  errorText,
  okOutput,
  type ToolHarness,
} from './testing/toolTestHarness.js';
import { toolFailure, toolSuccess, type ApprovalRequest } from './Tool.js';
import { DuplicateToolError, ToolRegistry, toToolResponse } from './ToolRegistry.js';

let h: ToolHarness;
beforeEach(async () => {
  h = await createToolHarness();
});
afterEach(async () => {
  await h.cleanup();
});

const ALL_TOOLS = [
  'read_file',
  'read_line_range',
  'read_many_files',
  'write_file',
  'replace',
  'insert_at_line',
  'delete_line_range',
  'run_shell_command',
  'grep',
  'glob',
  'list_directory',
  'todo_write',
  'todo_read',
  'recall',
];

describe('the default registry', () => {
  it('offers every tool with an object JSON schema the provider can send', () => {
    const schemas = createDefaultToolRegistry().schemas();
    expect(schemas.map((s) => s.name)).toEqual(ALL_TOOLS);
    for (const schema of schemas) {
      expect(schema.description.length).toBeGreaterThan(20);
      expect(schema.parameters.type).toBe('object');
      expect(schema.parameters).not.toHaveProperty('$schema');
      expect(JSON.parse(JSON.stringify(schema))).toEqual(schema);
    }
  });

  it('REQ-HD-005.2/005.3 uses the density vocabulary names, with read/write kinds to match', () => {
    const registry = createDefaultToolRegistry();
    for (const name of READ_TOOLS.filter((n) => !n.startsWith('ast_'))) {
      expect(registry.get(name)?.kind).toBe('read');
    }
    for (const name of WRITE_TOOLS.filter((n) => !n.startsWith('ast_'))) {
      expect(registry.get(name)?.kind).toBe('write');
    }
    expect(registry.get('run_shell_command')?.kind).toBe('shell');
  });

  it('refuses to register two tools with one name', () => {
    const registry = createDefaultToolRegistry();
    expect(() => registry.register(registry.get('read_file')!)).toThrow(DuplicateToolError);
  });
});

describe('ToolRegistry.execute: bad calls become error responses', () => {
  it('answers an unknown tool with TOOL_NOT_FOUND, a suggestion and the list', async () => {
    const response = await h.call('reed_file', { file_path: 'a' });
    expect(response).toMatchObject({ type: 'tool_response', toolName: 'reed_file', result: '' });
    const error = errorText(response, 'TOOL_NOT_FOUND');
    expect(error).toContain('Did you mean read_file');
    expect(error).toContain('list_directory');
  });

  it('answers raw-string parameters (malformed JSON from the provider) with INVALID_PARAMETERS', async () => {
    const error = errorText(
      await h.call('read_file', '{"file_path": "a.ts"'),
      'INVALID_PARAMETERS',
    );
    expect(error).toContain('must be a JSON object');
    expect(error).toContain('not valid JSON');
    expect(error).toContain('{\\"file_path\\": \\"a.ts\\"');
  });

  it('answers null, arrays and numbers as parameters with INVALID_PARAMETERS', async () => {
    expect(errorText(await h.call('read_file', null), 'INVALID_PARAMETERS')).toContain('null');
    expect(errorText(await h.call('read_file', ['a']), 'INVALID_PARAMETERS')).toContain('an array');
    expect(errorText(await h.call('read_file', 3), 'INVALID_PARAMETERS')).toContain('a number');
  });

  it('treats missing or empty-string parameters as {} (a no-argument call)', async () => {
    expect(okOutput(await h.call('todo_read', undefined))).toContain('empty');
    expect(okOutput(await h.call('todo_read', '  '))).toContain('empty');
  });

  it('names the missing field, the wrong type and the expected shape', async () => {
    const missing = errorText(await h.call('read_file', {}), 'INVALID_PARAMETERS');
    expect(missing).toContain('file_path: is required (expected string)');
    expect(missing).toContain('Expected {file_path: string, offset?: integer');
    const wrong = errorText(
      await h.call('read_file', { file_path: 'a', offset: '3' }),
      'INVALID_PARAMETERS',
    );
    expect(wrong).toContain('offset: expected number, received string');
  });

  it('names nested fields by path', async () => {
    const error = errorText(
      await h.call('todo_write', { todos: [{ id: '1', content: 'x' }] }),
      'INVALID_PARAMETERS',
    );
    expect(error).toContain('todos[0].status');
  });

  it('turns a thrown exception into TOOL_EXECUTION_FAILED', async () => {
    const registry = new ToolRegistry().register(
      defineTool({
        name: 'explode',
        kind: 'other',
        description: 'throws for the test',
        parameters: z.object({}),
        execute: () => Promise.reject(new Error('kaboom')),
      }),
    );
    const response = await registry.execute(toolCallBlock('c1', 'explode', {}), h.context);
    expect(errorText(response, 'TOOL_EXECUTION_FAILED')).toContain('kaboom');
    expect(response.callId).toBe('c1');
  });

  it('does not run a tool when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const response = await h.call(
      'write_file',
      { file_path: 'x.txt', content: 'x' },
      { signal: controller.signal },
    );
    errorText(response, 'ABORTED');
    await expect(h.read('x.txt')).rejects.toThrow();
  });
});

describe('ToolRegistry.execute: approval', () => {
  const writeCall = { file_path: 'w.txt', content: 'hi\n' };

  it('asks before a write tool runs and runs it on "yes"', async () => {
    const approve = vi.fn((_request: ApprovalRequest) => Promise.resolve('yes' as const));
    okOutput(await h.call('write_file', writeCall, { autoApprove: false, approve }));
    expect(await h.read('w.txt')).toBe('hi\n');
    expect(approve).toHaveBeenCalledTimes(1);
    expect(approve.mock.calls[0]?.[0]).toMatchObject({
      toolName: 'write_file',
      kind: 'write',
      description: 'Write 1 line to w.txt',
      parameters: writeCall,
    });
  });

  it('#12.9 a write outside the workspace fails at once, without asking the user first', async () => {
    const approve = vi.fn(() => Promise.resolve('yes' as const));
    for (const [tool, params] of [
      ['write_file', { file_path: '../escape.txt', content: 'x' }],
      ['replace', { file_path: '/etc/hosts', old_string: 'a', new_string: 'b' }],
      ['insert_at_line', { file_path: '../x.txt', line: 1, content: 'x' }],
      ['delete_line_range', { file_path: '../x.txt', start_line: 1, end_line: 1 }],
    ] as const) {
      errorText(
        await h.call(tool, params, { autoApprove: false, approve }),
        'PATH_OUTSIDE_WORKSPACE',
      );
    }
    expect(approve).not.toHaveBeenCalled();
  });

  it('on "no" returns TOOL_DENIED and changes nothing', async () => {
    const approve = vi.fn(() => Promise.resolve('no' as const));
    errorText(
      await h.call('write_file', writeCall, { autoApprove: false, approve }),
      'TOOL_DENIED',
    );
    await expect(h.read('w.txt')).rejects.toThrow();
  });

  it('on "always" stops asking for that tool, but still asks for other tools', async () => {
    const approve = vi.fn(() => Promise.resolve('always' as const));
    const context = { autoApprove: false, approve };
    okOutput(await h.call('write_file', writeCall, context));
    okOutput(await h.call('write_file', { ...writeCall, content: 'again\n' }, context));
    expect(approve).toHaveBeenCalledTimes(1);
    okOutput(
      await h.call(
        'replace',
        { file_path: 'w.txt', old_string: 'again', new_string: 'x' },
        context,
      ),
    );
    expect(approve).toHaveBeenCalledTimes(2);
    h.registry.resetApprovals();
    okOutput(await h.call('write_file', writeCall, context));
    expect(approve).toHaveBeenCalledTimes(3);
  });

  it('asks before shell commands too', async () => {
    const approve = vi.fn(() => Promise.resolve('no' as const));
    const error = errorText(
      await h.call('run_shell_command', { command: 'touch made' }, { autoApprove: false, approve }),
      'TOOL_DENIED',
    );
    expect(error).toContain('declined');
    expect(approve.mock.calls[0]).toMatchObject([
      { kind: 'shell', description: 'Run `touch made`' },
    ]);
    await expect(h.read('made')).rejects.toThrow();
  });

  it('never asks for read tools', async () => {
    await h.write('a.txt', 'a\n');
    const approve = vi.fn(() => Promise.resolve('no' as const));
    okOutput(await h.call('read_file', { file_path: 'a.txt' }, { autoApprove: false, approve }));
    okOutput(await h.call('todo_write', { todos: [] }, { autoApprove: false, approve }));
    expect(approve).not.toHaveBeenCalled();
  });

  it('does not ask when auto-approve is on', async () => {
    const approve = vi.fn(() => Promise.resolve('no' as const));
    okOutput(await h.call('write_file', writeCall, { autoApprove: true, approve }));
    expect(approve).not.toHaveBeenCalled();
  });

  it('denies write and shell tools when there is no way to ask', async () => {
    const error = errorText(
      await h.call('write_file', writeCall, { autoApprove: false }),
      'TOOL_DENIED',
    );
    expect(error).toContain('auto-approve');
  });

  it('turns a failing approval callback into an error response', async () => {
    const approve = () => Promise.reject(new Error('prompt closed'));
    const error = errorText(
      await h.call('write_file', writeCall, { autoApprove: false, approve }),
      'TOOL_EXECUTION_FAILED',
    );
    expect(error).toContain('prompt closed');
  });

  it('does not run the tool when the turn is cancelled while the user is being asked', async () => {
    const controller = new AbortController();
    const approve = () => {
      controller.abort();
      return Promise.resolve('yes' as const);
    };
    errorText(
      await h.call('write_file', writeCall, {
        autoApprove: false,
        approve,
        signal: controller.signal,
      }),
      'ABORTED',
    );
    await expect(h.read('w.txt')).rejects.toThrow();
  });
});

describe('toToolResponse', () => {
  const call = toolCallBlock('id-1', 'read_file', {});

  it('puts a success output in result and sets no error', () => {
    expect(toToolResponse(call, toolSuccess('out'))).toEqual({
      type: 'tool_response',
      callId: 'id-1',
      toolName: 'read_file',
      result: 'out',
    });
  });

  it('puts "<code>: <message>" in error and the partial output (or "") in result', () => {
    expect(toToolResponse(call, toolFailure('NO_MATCH', 'not found'))).toMatchObject({
      result: '',
      error: 'NO_MATCH: not found',
    });
    expect(toToolResponse(call, toolFailure('IO_ERROR', 'half', 'partial'))).toMatchObject({
      result: 'partial',
      error: 'IO_ERROR: half',
    });
  });
});

describe('createToolContext', () => {
  it('fills in Node ports and a new TodoStore, keeping what is given', () => {
    const context = createToolContext({ workspaceRoot: '/w', fs: undefined, autoApprove: true });
    expect(context.fs).toBe(nodeFileSystem);
    expect(context.todoStore.get()).toEqual([]);
    expect(context.autoApprove).toBe(true);
    expect(
      createToolContext({ workspaceRoot: '/w', todoStore: h.context.todoStore }).todoStore,
    ).toBe(h.context.todoStore);
  });
});
