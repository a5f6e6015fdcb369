import { describe, expect, it } from 'vitest';
import type { ToolCallBlock } from '../../../services/history/IContent.js';
import { shellReadOfCall } from './shellReadOfCall.js';

const call = (name: string, parameters: unknown): ToolCallBlock => ({
  type: 'tool_call',
  id: 'c1',
  name,
  parameters,
});

describe('shellReadOfCall', () => {
  it('#33 #35 a shell call printing a range of one file starts where its command says', () => {
    expect(
      shellReadOfCall(call('run_shell_command', { command: "sed -n '240,420p' a.ts" })),
    ).toEqual({ firstLine: 240 });
    expect(shellReadOfCall(call('run_shell_command', { command: 'cat a.ts' }))).toEqual({
      firstLine: 1,
    });
  });

  it('#33 #35 anything else is no shell read: another tool, a command that is no read, bad parameters', () => {
    expect(shellReadOfCall(undefined)).toBeUndefined();
    expect(shellReadOfCall(call('read_file', { file_path: 'a.ts' }))).toBeUndefined();
    expect(shellReadOfCall(call('run_shell_command', { command: 'npm test' }))).toBeUndefined();
    expect(shellReadOfCall(call('run_shell_command', { command: 42 }))).toBeUndefined();
    expect(shellReadOfCall(call('run_shell_command', 'cat a.ts'))).toBeUndefined();
  });
});
