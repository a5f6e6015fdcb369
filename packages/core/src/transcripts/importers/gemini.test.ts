import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findFileInclusions } from '../../core/compression/densityVocabulary.js';
import type { ToolCallBlock, ToolResponseBlock } from '../../services/history/IContent.js';
import { checkImport } from '../checkImport.js';
import { toolLinkProblems } from '../toolLinkProblems.js';
import { importGeminiContent } from './geminiContent.js';
import { importGeminiMarkdown, splitSections } from './geminiMarkdown.js';
import { importGeminiRecording } from './geminiRecording.js';

const fixture = (name: string): string =>
  fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const json = (name: string): unknown => JSON.parse(readFileSync(fixture(name), 'utf8'));
const blocksOf = (contents: readonly { blocks: readonly unknown[] }[]) =>
  contents.flatMap((e) => e.blocks);
const callsOf = (contents: Parameters<typeof blocksOf>[0]) =>
  blocksOf(contents).filter((b): b is ToolCallBlock => (b as ToolCallBlock).type === 'tool_call');
const responsesOf = (contents: Parameters<typeof blocksOf>[0]) =>
  blocksOf(contents).filter(
    (b): b is ToolResponseBlock => (b as ToolResponseBlock).type === 'tool_response',
  );

describe('importGeminiRecording', () => {
  const session = importGeminiRecording(json('gemini-recording.json'), { file: 'rec.json' });

  it('maps the @ expansion to one inclusion per file', () => {
    const text = session.contents[0]?.blocks[0];
    expect(text?.type).toBe('text');
    const spans = findFileInclusions(text?.type === 'text' ? text.text : '');
    expect(spans.map((s) => s.filePath)).toEqual(['notes.md', 'todo.md']);
    expect(session.stats.inclusions).toBe(2);
  });

  it('turns tool calls into calls and their results into linked responses', () => {
    expect(callsOf(session.contents).map((c) => [c.id, c.name])).toEqual([
      ['read_file-1', 'read_file'],
      ['write_file-2', 'write_file'],
      ['replace-3', 'replace'],
    ]);
    expect(toolLinkProblems(session.contents)).toEqual([]);
  });

  it('keeps the failed replace as an error', () => {
    expect(responsesOf(session.contents).find((r) => r.callId === 'replace-3')).toMatchObject({
      result: '',
      error: expect.stringContaining('0 occurrences') as unknown,
    });
    expect(session.stats).toMatchObject({ writes: 2, failedWrites: 1 });
  });

  it('infers the workspace from a relative path echoed as absolute', () => {
    expect(session.workspaceRoot).toBe('/home/dev/notes');
  });

  it('keeps thought summaries as thinking when asked, ignores UI notices, reports bad messages', () => {
    const withThoughts = importGeminiRecording(json('gemini-recording.json'), {
      file: 'rec.json',
      includeThinking: true,
    });
    expect(session.contents[1]?.blocks[0]?.type).toBe('tool_call');
    expect(withThoughts.contents[1]?.blocks[0]).toEqual({
      type: 'thinking',
      thought: 'Planning\nRead both files, then write a summary.',
    });
    expect(session.ignored).toEqual({ 'info message': 1 });
    expect(session.skipped).toEqual([
      { path: '$.messages[4]', reason: 'expected a message object' },
    ]);
  });
});

describe('importGeminiContent', () => {
  const session = importGeminiContent(json('gemini-content.json'), { file: 'share.json' });

  it('links id-less calls to the responses of the next content, in order', () => {
    const calls = callsOf(session.contents);
    expect(calls.map((c) => [c.id, c.name])).toEqual([
      ['read_file_200_0', 'read_file'],
      ['read_file_200_1', 'read_line_range'],
      ['replace_200_2', 'replace'],
      ['read_many_files_300_0', 'read_many_files'],
    ]);
    expect(calls[0]?.parameters).toEqual({ file_path: '/home/dev/garden/plan.md' });
    expect(toolLinkProblems(session.contents)).toEqual([]);
  });

  it('rewrites read_many_files content that follows the response into our inclusion format', () => {
    const response = responsesOf(session.contents).find((r) => r.toolName === 'read_many_files');
    const spans = findFileInclusions(String(response?.result));
    expect(spans.map((s) => s.filePath)).toEqual(['beds/one.txt', 'beds/two.txt']);
  });

  it('maps the @ expansion, keeps the failed replace and reads the workspace', () => {
    expect(session.stats).toMatchObject({ inclusions: 1, failedWrites: 1 });
    expect(session.workspaceRoot).toBe('/home/dev/garden');
    const withThoughts = importGeminiContent(json('gemini-content.json'), {
      file: 'share.json',
      includeThinking: true,
    });
    expect(withThoughts.contents[5]?.blocks[0]).toEqual({
      type: 'thinking',
      thought: 'Checking all beds at once.',
    });
  });

  it('reports a content without parts by JSON path', () => {
    expect(session.skipped).toEqual([
      { path: '$[7]', reason: 'expected a Content object with a string role and a parts array' },
    ]);
  });

  it('synthesizes stable ids when responses carry none', () => {
    const turns = [
      { role: 'model', parts: [{ functionCall: { name: 'read_file', args: { file_path: 'a' } } }] },
      {
        role: 'user',
        parts: [{ functionResponse: { name: 'read_file', response: { output: 'A' } } }],
      },
    ];
    const first = importGeminiContent(turns, { file: 'x' });
    const second = importGeminiContent(turns, { file: 'x' });
    expect(callsOf(first.contents)[0]?.id).toBe('gemini-0-0');
    expect(second.contents).toEqual(first.contents);
    expect(toolLinkProblems(first.contents)).toEqual([]);
  });

  it('marks a gemini-cli compression snapshot as a summary', () => {
    const session = importGeminiContent(
      [{ role: 'user', parts: [{ text: '<state_snapshot>goal</state_snapshot>' }] }],
      { file: 'x' },
    );
    expect(session.contents[0]?.metadata).toEqual({ isSummary: true });
  });
});

describe('importGeminiMarkdown', () => {
  const text = readFileSync(fixture('gemini-share.md.txt'), 'utf8');
  const session = importGeminiMarkdown(text, { file: 'share.md' });

  it('splits sections only at --- separators followed by a role header', () => {
    expect(session.contents.map((e) => e.speaker)).toEqual([
      'human',
      'human',
      'ai',
      'tool',
      'ai',
      'tool',
      'ai',
    ]);
    const note = session.contents[1]?.blocks[0];
    expect(note?.type === 'text' ? note.text : '').toContain(
      '---\n\nthis rule line is part of my message.',
    );
  });

  it('parses fenced tool JSON, links responses and maps inlined files', () => {
    expect(toolLinkProblems(session.contents)).toEqual([]);
    const read = responsesOf(session.contents)[0];
    expect(findFileInclusions(String(read?.result)).map((s) => s.filePath)).toEqual([
      '/home/dev/kite/specs/a.md',
      '/home/dev/kite/specs/b.md',
    ]);
    expect(session.workspaceRoot).toBe('/home/dev/kite');
  });

  it('reports a broken JSON block by line', () => {
    expect(session.skipped).toEqual([
      { line: 93, reason: 'expected JSON in the functionCall block' },
    ]);
  });

  it.each([
    ['## USER 🧑‍💻\n\nhello\n\n---\n\n## MODEL ✨\n\nhi'],
    ['**user**:\n\nhello\n\n---\n\n**model**:\n\nhi'],
  ])('reads the other header styles: %j', (markdown) => {
    expect(splitSections(markdown).map((s) => [s.role, s.body])).toEqual([
      ['user', 'hello'],
      ['model', 'hi'],
    ]);
  });
});

describe('gemini-cli imports: the calls the file holds', () => {
  it('#22.17 counts replies and calls of a recording, a JSON share and a markdown share', () => {
    expect(importGeminiRecording(json('gemini-recording.json'), { file: 'r' }).recorded).toEqual({
      modelCalls: 2,
      toolCalls: 3,
    });
    expect(importGeminiContent(json('gemini-content.json'), { file: 'c' }).recorded).toEqual({
      modelCalls: 5,
      toolCalls: 4,
    });
    const markdown = readFileSync(fixture('gemini-share.md.txt'), 'utf8');
    expect(importGeminiMarkdown(markdown, { file: 'm' }).recorded).toEqual({
      modelCalls: 4,
      toolCalls: 3,
    });
  });

  it('#22.17 flags recording tool calls of a shape the mapping does not read', () => {
    const messages = [
      { type: 'user', content: 'Read the specs.' },
      ...[1, 2].map((step) => ({
        type: 'gemini',
        content: `Reading ${step}.`,
        toolCalls: [{ id: `c${step}`, functionName: 'read_file', args: { path: `s${step}.md` } }],
      })),
    ];
    const session = importGeminiRecording({ sessionId: 's', messages }, { file: 'odd.json' });
    expect(session.stats).toMatchObject({ aiEntries: 2, toolCalls: 0 });
    expect(session.recorded).toEqual({ modelCalls: 2, toolCalls: 2 });
    expect(checkImport(session)).toMatchObject({ kind: 'calls-missing' });
  });

  it('#22.17 flags JSON-share function calls the mapping does not read', () => {
    const contents = [
      { role: 'user', parts: [{ text: 'Read the specs.' }] },
      ...[1, 2].map((step) => ({
        role: 'model',
        parts: [{ text: `Reading ${step}.` }, { functionCall: { tool: 'read_file', args: {} } }],
      })),
    ];
    const session = importGeminiContent(contents, { file: 'odd.json' });
    expect(session.stats).toMatchObject({ aiEntries: 2, toolCalls: 0 });
    expect(session.recorded).toEqual({ modelCalls: 2, toolCalls: 2 });
    expect(checkImport(session)).toMatchObject({ kind: 'calls-missing' });
  });

  it('#22.17 flags markdown tool commands the mapping could not parse', () => {
    const model = (step: number): string =>
      `✨ ## MODEL\n\nReading ${step}.**Tool Command**:\n\`\`\`json\n{ "name": "read_file", args }\n\`\`\``;
    const text = ['🧑‍💻 ## USER\n\nRead the specs.', model(1), model(2)].join('\n\n---\n\n');
    const session = importGeminiMarkdown(text, { file: 'odd.md' });
    expect(session.stats).toMatchObject({ aiEntries: 2, toolCalls: 0 });
    expect(session.recorded).toEqual({ modelCalls: 2, toolCalls: 2 });
    expect(checkImport(session)).toMatchObject({ kind: 'calls-missing' });
  });
});
