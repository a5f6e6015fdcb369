/** A small Dense session recording of our own for replay tests: read, edit, read again. */
import {
  createAiMessage,
  createToolResponse,
  createUserMessage,
  serializeSessionContent,
  serializeSessionHeader,
  toolCallBlock,
  type IContent,
} from '@dense/core';

const A_V1 = 'export const a = 1;\n'.repeat(40);
const A_V2 = 'export const a = 2;\n'.repeat(40);

function round(id: string, name: string, parameters: unknown, result: string): IContent[] {
  return [
    createAiMessage([toolCallBlock(id, name, parameters)]),
    createToolResponse({ callId: id, toolName: name, result }),
  ];
}

/** A small Dense session recording of our own: read, edit, read again. */
export function recording(): string {
  const contents: IContent[] = [
    createUserMessage('Set a to 2 in src/a.ts'),
    ...round('c0', 'read_file', { file_path: 'src/b.ts' }, 'export const b = 0;\n'.repeat(20)),
    ...round('c1', 'read_file', { file_path: 'src/a.ts' }, A_V1),
    ...round('c2', 'replace', { file_path: 'src/a.ts', old_string: '1', new_string: '2' }, 'ok'),
    ...round('c3', 'read_file', { file_path: 'src/a.ts' }, A_V2),
    createAiMessage('Done.'),
  ];
  const header = serializeSessionHeader({
    sessionId: 'fixture',
    startedAt: '2026-11-22T10:00:00.000Z',
    workspaceRoot: '/proj',
    provider: 'scripted',
    model: 'scripted-model',
  });
  return header + contents.map(serializeSessionContent).join('');
}

const T0 = Date.UTC(2026, 10, 22, 10);

/** A session whose agent compacted itself once: its summary waited 70 s after the last record. */
export function selfCompactedRecording(): string {
  const timed = (entry: IContent, seconds: number): IContent => ({
    ...entry,
    metadata: { ...entry.metadata, timestamp: T0 + seconds * 1000 },
  });
  const contents: IContent[] = [
    createUserMessage('Set a to 2 in src/a.ts'),
    ...round('c1', 'read_file', { file_path: 'src/a.ts' }, A_V1).map((e, i) =>
      i === 0 ? timed(e, 10) : e,
    ),
    timed(createAiMessage('a is 1 now.'), 20),
    createUserMessage('Summary: src/a.ts sets a to 1; the task is to set it to 2.', {
      isSummary: true,
      timestamp: T0 + 90_000,
      compactionStartedAt: T0 + 20_000,
    }),
    ...round('c2', 'replace', { file_path: 'src/a.ts', old_string: '1', new_string: '2' }, 'ok'),
    timed(createAiMessage('Done.'), 100),
  ];
  const header = serializeSessionHeader({
    sessionId: 'compacted',
    startedAt: '2026-11-22T10:00:00.000Z',
    workspaceRoot: '/proj',
    provider: 'scripted',
    model: 'scripted-model',
  });
  return header + contents.map(serializeSessionContent).join('');
}
