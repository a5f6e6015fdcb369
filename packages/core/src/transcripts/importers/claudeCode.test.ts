import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { ToolCallBlock } from '../../services/history/IContent.js';
import { readFileLines, textLines } from '../lineSource.js';
import { toolLinkProblems } from '../toolLinkProblems.js';
import { detectTranscriptFormat } from '../detectTranscriptFormat.js';
import { importTranscriptSessions } from '../importTranscript.js';
import { importClaudeCode, importClaudeCodeRecords } from './claudeCode.js';

const FIXTURE = fileURLToPath(new URL('../fixtures/claude-code-session.jsonl', import.meta.url));

function line(record: Record<string, unknown>): string {
  return JSON.stringify({ sessionId: 's', cwd: '/w', uuid: 'u', isSidechain: false, ...record });
}

describe('importClaudeCode', () => {
  it('merges assistant lines that share message.id into one AI entry', async () => {
    const session = await importClaudeCode(readFileLines(FIXTURE), {
      file: FIXTURE,
      includeThinking: true,
    });
    const first = session.contents[1];
    expect(first?.speaker).toBe('ai');
    expect(first?.blocks.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_call']);
    expect(first?.metadata).toMatchObject({ id: 'msg_A', model: 'claude-test-1' });
  });

  it('keeps one reply whole when its tool results were recorded between its lines', async () => {
    const session = await importClaudeCode(readFileLines(FIXTURE), { file: FIXTURE });
    const reply = session.contents.find((entry) => entry.metadata?.id === 'msg_C');
    expect(reply?.blocks.map((block) => (block as ToolCallBlock).id)).toEqual([
      'toolu_bash1',
      'toolu_write1',
    ]);
    const index = session.contents.indexOf(reply!);
    expect(session.contents[index + 1]?.blocks.map((b) => b.type)).toEqual([
      'tool_response',
      'tool_response',
    ]);
    expect(toolLinkProblems(session.contents)).toEqual([]);
  });

  it('maps Claude Code tools to canonical names and keeps the original name', async () => {
    const session = await importClaudeCode(readFileLines(FIXTURE), { file: FIXTURE });
    const calls = session.contents.flatMap((entry) =>
      entry.blocks.filter((block): block is ToolCallBlock => block.type === 'tool_call'),
    );
    expect(calls.map((call) => [call.description, call.name])).toEqual([
      ['Read', 'read_file'],
      ['Edit', 'replace'],
      ['Bash', 'run_shell_command'],
      ['Write', 'write_file'],
    ]);
    expect(calls[2]?.parameters).toEqual({
      command: 'npm test -- cart',
      description: 'Run the cart tests',
      timeout_ms: 60000,
    });
  });

  it('keeps a failed edit as an error response', async () => {
    const session = await importClaudeCode(readFileLines(FIXTURE), { file: FIXTURE });
    const response = session.contents
      .flatMap((entry) => entry.blocks)
      .find((block) => block.type === 'tool_response' && block.callId === 'toolu_edit1');
    expect(response).toMatchObject({
      toolName: 'replace',
      result: '',
      error: '<tool_use_error>String to replace not found in file.</tool_use_error>',
    });
    expect(session.stats).toMatchObject({ writes: 2, failedWrites: 1 });
  });

  it('reports malformed and orphan lines by line number and counts non-message lines', async () => {
    const session = await importClaudeCode(readFileLines(FIXTURE), { file: FIXTURE });
    expect(session.skipped).toEqual([
      { line: 15, reason: expect.stringMatching(/^invalid JSON/) as unknown },
      {
        line: 16,
        reason: "tool_result for unknown tool_use id 'toolu_missing'",
        kind: 'orphan-result',
      },
    ]);
    expect(session.ignored).toEqual({
      'summary line': 1,
      'file-history-snapshot line': 1,
      'progress line': 1,
      'system compact_boundary line': 1,
      'sidechain (subagent) message inside a main session': 1,
    });
    expect(session).toMatchObject({
      format: 'claude-code',
      sessionId: 'cc-session-1',
      workspaceRoot: '/home/dev/shop',
      model: 'claude-test-1',
    });
  });

  it('reads a subagent file (every line a sidechain) as its own session', async () => {
    const lines = [
      line({
        type: 'user',
        isSidechain: true,
        message: { role: 'user', content: 'Search the repo' },
      }),
      line({
        type: 'assistant',
        isSidechain: true,
        message: { id: 'm', role: 'assistant', content: [{ type: 'text', text: 'Found it.' }] },
      }),
    ];
    const session = await importClaudeCode(lines, { file: 'agent-x.jsonl' });
    expect(session.contents.map((entry) => entry.speaker)).toEqual(['human', 'ai']);
  });

  it('turns images into media blocks and image results into a placeholder', async () => {
    const lines = [
      line({
        type: 'assistant',
        message: {
          id: 'm1',
          content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/a.png' } }],
        },
      }),
      line({
        type: 'user',
        message: {
          content: [
            {
              type: 'tool_result',
              tool_use_id: 't1',
              content: [
                { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAA' } },
              ],
            },
            { type: 'text', text: 'what is this?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'BBB' } },
          ],
        },
      }),
    ];
    const session = await importClaudeCode(lines, { file: 'x.jsonl' });
    expect(session.contents[1]?.blocks[0]).toMatchObject({ result: '[image]' });
    expect(session.contents[2]?.blocks).toEqual([
      { type: 'text', text: 'what is this?' },
      { type: 'media', mimeType: 'image/jpeg', data: 'BBB', encoding: 'base64' },
    ]);
  });

  it('drops thinking when asked', async () => {
    const session = await importClaudeCode(readFileLines(FIXTURE), {
      file: FIXTURE,
      includeThinking: false,
    });
    expect(
      session.contents.flatMap((entry) => entry.blocks).some((b) => b.type === 'thinking'),
    ).toBe(false);
  });

  it('skips a line without message content', async () => {
    const session = await importClaudeCode(textLines(`${line({ type: 'assistant' })}\n`), {
      file: 'x',
    });
    expect(session.skipped).toEqual([
      { line: 1, reason: 'assistant line without message.content' },
    ]);
  });
});

describe('importClaudeCode: chains and the hook array form', () => {
  const HOOKS = fileURLToPath(new URL('../fixtures/claude-code-hooks-chat.json', import.meta.url));

  it('#22.14 imports a main session that starts with a Warmup sidechain exchange as the main session', async () => {
    const lines = [
      line({ type: 'user', isSidechain: true, message: { role: 'user', content: 'Warmup' } }),
      line({
        type: 'assistant',
        isSidechain: true,
        message: { id: 'w', role: 'assistant', content: [{ type: 'text', text: 'Ready.' }] },
      }),
      line({ type: 'user', message: { role: 'user', content: 'Read a.ts' } }),
      line({
        type: 'assistant',
        message: {
          id: 'm1',
          content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/w/a.ts' } }],
        },
      }),
      line({
        type: 'user',
        message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'x' }] },
      }),
      line({
        type: 'assistant',
        message: { id: 'm2', content: [{ type: 'text', text: 'Done.' }] },
      }),
    ];
    const session = await importClaudeCode(lines, { file: 'main.jsonl' });
    expect(session.contents.map((entry) => entry.speaker)).toEqual(['human', 'ai', 'tool', 'ai']);
    expect(session.stats).toMatchObject({ aiEntries: 2, toolCalls: 1, toolResponses: 1 });
    expect(session.ignored).toEqual({ 'sidechain (subagent) message inside a main session': 2 });
    expect(session.recorded).toEqual({ modelCalls: 2, toolCalls: 1 });
  });

  it('#22.16 reads the logs/chat.json hook form: one JSON array of the session records', async () => {
    expect(await detectTranscriptFormat(HOOKS)).toBe('claude-code');
    const [session, ...others] = await importTranscriptSessions(HOOKS);
    expect(others).toEqual([]);
    expect(session).toMatchObject({
      format: 'claude-code',
      sessionId: 'hook-session-1',
      workspaceRoot: '/home/dev/notes',
      skipped: [],
      recorded: { modelCalls: 3, toolCalls: 2 },
    });
    expect(session?.stats).toMatchObject({ aiEntries: 3, toolCalls: 2, reads: 1, writes: 1 });
    expect(toolLinkProblems(session?.contents ?? [])).toEqual([]);
    const given = await importTranscriptSessions(HOOKS, { format: 'claude-code' });
    expect(given[0]?.stats).toEqual(session?.stats);
  });

  it('#22.16 reports a hook-array element that is not a record by its JSON path', () => {
    const session = importClaudeCodeRecords(
      [3, { type: 'user', sessionId: 's', message: { content: 'hi' } }],
      { file: 'chat.json' },
    );
    expect(session.skipped).toEqual([{ path: '$[0]', reason: 'expected a JSON object' }]);
    expect(session.stats.humanEntries).toBe(1);
  });
});

describe('importClaudeCode: thinking fills the context', () => {
  const records = [
    { type: 'user', sessionId: 's', message: { content: 'Fix the parser' } },
    {
      type: 'assistant',
      sessionId: 's',
      message: {
        id: 'm1',
        content: [
          { type: 'thinking', thinking: 'The parser drops the last token.', signature: 'sig' },
        ],
        usage: { input_tokens: 10, cache_read_input_tokens: 500 },
      },
    },
    {
      type: 'assistant',
      sessionId: 's',
      message: {
        id: 'm1',
        content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/w/p.ts' } }],
      },
    },
  ];

  it('#25.6 keeps thinking blocks by default, since Claude Code sends them back to the model', () => {
    const session = importClaudeCodeRecords(records, { file: 'chat.json' });
    expect(session.contents[1]?.blocks).toEqual([
      { type: 'thinking', thought: 'The parser drops the last token.', signature: 'sig' },
      expect.objectContaining({ type: 'tool_call', id: 't1' }),
    ]);
    expect(session.contents[1]?.metadata?.usage?.promptTokens).toBe(510);
  });

  it('#25.6 keeps them through importTranscriptSessions unless told to drop them', async () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'cc-think-')), 'chat.json');
    writeFileSync(file, JSON.stringify(records));
    const thinking = (entries: readonly { blocks: readonly { type: string }[] }[]) =>
      entries.flatMap((entry) => entry.blocks).filter((block) => block.type === 'thinking').length;
    const [kept] = await importTranscriptSessions(file, { format: 'claude-code' });
    expect(thinking(kept?.contents ?? [])).toBe(1);
    const [dropped] = await importTranscriptSessions(file, {
      format: 'claude-code',
      includeThinking: false,
    });
    expect(thinking(dropped?.contents ?? [])).toBe(0);
  });
});
