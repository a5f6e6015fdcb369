/**
 * Synthetic imported sessions for the proxy bench's tests: a task, then reads of distinct files a
 * minute apart, as the importer would give them.
 */
import type { IContent, ImportedSession, ToolResponseBlock } from '@dense/core';
import { importedSession } from '../../../packages/core/src/test-utils/importedSession.js';

export const T0 = Date.UTC(2026, 0, 1);

/** The model's read of `/w/<id>.ts`, `at` ms after T0. */
export function readCall(id: string, at: number): IContent {
  return {
    speaker: 'ai',
    blocks: [
      { type: 'tool_call', id, name: 'read_file', parameters: { file_path: `/w/${id}.ts` } },
    ],
    metadata: { timestamp: T0 + at },
  };
}

/** The read's output: `head`, then `chars` characters of one repeated declaration. */
export function readOutput(id: string, chars: number, head = ''): ToolResponseBlock {
  return {
    type: 'tool_response',
    callId: id,
    toolName: 'read_file',
    result: head + `export const ${id} = 1;\n`.repeat(Math.ceil(chars / 22)).slice(0, chars),
  };
}

export function readResult(id: string, chars: number, head = ''): IContent {
  return { speaker: 'tool', blocks: [readOutput(id, chars, head)] };
}

/** A task, `rounds` reads (`after(i)` inserted after read i), then the model's closing `text`. */
export function readSession(input: {
  readonly rounds: number;
  readonly chars: number;
  readonly task?: string;
  readonly head?: (round: number) => string;
  readonly after?: (round: number) => readonly IContent[];
  readonly closing?: string;
}): ImportedSession {
  const contents: IContent[] = [
    { speaker: 'human', blocks: [{ type: 'text', text: input.task ?? 'go through every module' }] },
  ];
  for (let i = 0; i < input.rounds; i++) {
    contents.push(readCall(`m${i}`, i * 60_000), readResult(`m${i}`, input.chars, input.head?.(i)));
    contents.push(...(input.after?.(i) ?? []));
  }
  contents.push({
    speaker: 'ai',
    blocks: [{ type: 'text', text: input.closing ?? 'done' }],
    metadata: { timestamp: T0 + input.rounds * 60_000 },
  });
  return { ...importedSession(contents, { format: 'claude-code' }), model: 'claude-sonnet-4-6' };
}
