/**
 * Claude Code 2.1.x session files as they are written today: metadata lines before the first
 * message, attachments, results written before their calls, history a resumed session copies,
 * and the client's own compaction call in `subagents/agent-acompact-*.jsonl`. Every record here
 * is invented; the shapes follow the real files (docs/transcripts.md).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { IContent, TextBlock } from '../../services/history/IContent.js';
import { checkImport } from '../checkImport.js';
import { detectTranscriptFormat } from '../detectTranscriptFormat.js';
import { importTranscriptSessions } from '../importTranscript.js';
import { toolLinkProblems } from '../toolLinkProblems.js';
import { importClaudeCode } from './claudeCode.js';

const base = { sessionId: 's2', cwd: '/w', isSidechain: false, version: '2.1.120' };
let uuid = 0;
const rec = (record: Record<string, unknown>): Record<string, unknown> => ({
  ...base,
  uuid: `u${++uuid}`,
  ...record,
});
const user = (text: string, extra: Record<string, unknown> = {}) =>
  rec({ type: 'user', message: { role: 'user', content: text }, ...extra });
const reply = (id: string, content: unknown[], extra: Record<string, unknown> = {}) =>
  rec({
    type: 'assistant',
    message: { id, model: 'claude-test', role: 'assistant', content },
    ...extra,
  });
const call = (id: string, command: string) => ({
  type: 'tool_use',
  id,
  name: 'Bash',
  input: { command },
});
const result = (id: string, text: string, extra: Record<string, unknown> = {}) =>
  rec({
    type: 'user',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] },
    ...extra,
  });
const meta = [
  { type: 'permission-mode', permissionMode: 'default', sessionId: 's2' },
  { type: 'ai-title', aiTitle: 'A title', sessionId: 's2' },
  { type: 'file-history-snapshot', messageId: 'm0', snapshot: {}, isSnapshotUpdate: false },
];

const lines = (records: readonly unknown[]): string[] => records.map((r) => JSON.stringify(r));
const texts = (contents: readonly IContent[]): string[] =>
  contents.flatMap((entry) =>
    entry.blocks.filter((b): b is TextBlock => b.type === 'text').map((b) => b.text),
  );

function writeTemp(name: string, records: readonly unknown[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'dense-cc2-'));
  const file = path.join(dir, name);
  writeFileSync(file, `${lines(records).join('\n')}\n`);
  return file;
}

describe('Claude Code 2.1.x files', () => {
  it('#32.1 detects a file that starts with permission-mode and title lines', async () => {
    const file = writeTemp('s.jsonl', [
      ...meta,
      user('fix the build'),
      reply('m1', [{ type: 'text', text: 'ok' }]),
    ]);
    expect(await detectTranscriptFormat(file)).toBe('claude-code');
    const [session] = await importTranscriptSessions(file);
    expect(session?.stats.aiEntries).toBe(1);
    expect(session?.ignored).toMatchObject({
      'permission-mode line': 1,
      'ai-title line': 1,
      'file-history-snapshot line': 1,
    });
  });

  it('#32.1 counts a line type it does not know as unknown, by name of the reason', async () => {
    const session = await importClaudeCode(
      lines([
        user('go'),
        { type: 'brand-new-kind', sessionId: 's2' },
        reply('m1', [{ type: 'text', text: 'ok' }]),
      ]),
      { file: 'x.jsonl' },
    );
    expect(session.ignored['unknown line type']).toBe(1);
  });

  it('#32.1 links a tool result written before the line holding its call', async () => {
    const session = await importClaudeCode(
      lines([
        user('list files'),
        reply('m1', [{ type: 'thinking', thinking: 'hm', signature: 'sig' }]),
        result('t1', 'a.txt\nb.txt'),
        reply('m1', [{ type: 'text', text: 'Listing.' }]),
        reply('m1', [call('t1', 'ls')]),
        reply('m2', [{ type: 'text', text: 'Two files.' }]),
      ]),
      { file: 'x.jsonl' },
    );
    expect(session.skipped).toEqual([]);
    expect(toolLinkProblems(session.contents)).toEqual([]);
    expect(session.stats.aiEntries).toBe(2);
    expect(session.stats.failedToolResponses).toBe(0);
    const tool = session.contents.find((entry) => entry.speaker === 'tool');
    expect(tool?.blocks[0]).toMatchObject({
      type: 'tool_response',
      callId: 't1',
      result: 'a.txt\nb.txt',
    });
  });

  it('#32.3 a result whose call never comes is skipped as an orphan, and checkImport says so', async () => {
    const session = await importClaudeCode(
      lines([user('go'), result('t404', 'out'), reply('m1', [{ type: 'text', text: 'ok' }])]),
      { file: 'x.jsonl' },
    );
    expect(session.skipped).toMatchObject([{ kind: 'orphan-result' }]);
    expect(checkImport(session)).toEqual({ kind: 'results-without-calls', count: 1 });
  });

  it('#32.1 keeps the attachments written after an early result after it, in one reply', async () => {
    const early = result('t1', 'out');
    const session = await importClaudeCode(
      lines([
        user('run it'),
        reply('m1', [{ type: 'text', text: 'Running.' }]),
        early,
        rec({
          type: 'attachment',
          parentUuid: early.uuid,
          attachment: { type: 'date_change', newDate: '2030-01-02' },
        }),
        reply('m1', [call('t1', 'make')]),
        reply('m2', [{ type: 'text', text: 'Done.' }]),
      ]),
      { file: 'x.jsonl' },
    );
    expect(session.stats.aiEntries).toBe(2);
    expect(session.contents.map((entry) => entry.speaker)).toEqual([
      'human',
      'ai',
      'tool',
      'human',
      'ai',
    ]);
    expect(texts(session.contents).some((text) => text.includes('2030-01-02'))).toBe(true);
  });

  it('#32.1 imports attachments as what they send: a re-read file with its text, a queued prompt as the user said it', async () => {
    const session = await importClaudeCode(
      lines([
        user('start'),
        rec({
          type: 'attachment',
          attachment: {
            type: 'file',
            filename: '/w/a.ts',
            content: {
              type: 'text',
              file: {
                filePath: '/w/a.ts',
                content: 'const a = 1;\nexport { a };',
                numLines: 2,
                startLine: 1,
                totalLines: 2,
              },
            },
            displayPath: 'a.ts',
          },
        }),
        rec({
          type: 'attachment',
          attachment: {
            type: 'queued_command',
            prompt: 'also update the docs',
            commandMode: 'prompt',
          },
        }),
        rec({ type: 'attachment', attachment: { type: 'never-seen-kind' } }),
        reply('m1', [{ type: 'text', text: 'ok' }]),
      ]),
      { file: 'x.jsonl' },
    );
    const all = texts(session.contents);
    expect(all.some((text) => text.includes('export { a };') && text.includes('/w/a.ts'))).toBe(
      true,
    );
    expect(all).toContain('also update the docs');
    expect(session.ignored['attachment never-seen-kind (not read)']).toBe(1);
    const file = session.contents.find((entry) => entry.metadata?.attachment === 'file');
    expect(file?.speaker).toBe('human');
  });

  it("#33.4 marks a skill's text (a meta user record naming the Skill call) as the client's, not the user's", async () => {
    const session = await importClaudeCode(
      lines([
        user('review the parser'),
        reply('m1', [{ type: 'tool_use', id: 'k1', name: 'Skill', input: { skill: 'review' } }]),
        result('k1', 'Launching skill: review'),
        rec({
          type: 'user',
          isMeta: true,
          sourceToolUseID: 'k1',
          message: {
            role: 'user',
            content: [{ type: 'text', text: '# Review\nCheck every file.' }],
          },
        }),
        reply('m2', [{ type: 'text', text: 'ok' }]),
      ]),
      { file: 'x.jsonl' },
    );
    const skill = session.contents.find((entry) =>
      entry.blocks.some((block) => block.type === 'text' && block.text.startsWith('# Review')),
    );
    expect(skill?.metadata?.attachment).toBe('skill');
    const typed = session.contents.find((entry) =>
      entry.blocks.some((block) => block.type === 'text' && block.text === 'review the parser'),
    );
    expect(typed?.metadata).toBeUndefined();
  });

  it('#32.1 leaves out the history a resumed session copied (same ids, one resume time) and counts it', async () => {
    const original = [
      user('first task'),
      reply('m1', [call('t1', 'ls')], { timestamp: '2030-01-01T00:00:01.000Z' }),
      result('t1', 'a'),
      reply('m2', [{ type: 'text', text: 'done' }], { timestamp: '2030-01-01T00:00:02.000Z' }),
    ];
    const at = '2030-01-02T00:00:00.000Z';
    const copy = [
      user('first task', { timestamp: at }),
      reply('m1', [call('t1', 'ls')], { timestamp: at }),
      result('t1', 'a', { timestamp: at }),
      reply('m2', [{ type: 'text', text: 'done' }], { timestamp: at }),
    ];
    const next = [user('second task'), reply('m3', [{ type: 'text', text: 'ok' }])];
    const session = await importClaudeCode(lines([...original, ...copy, ...next]), {
      file: 'x.jsonl',
    });
    expect(session.stats.aiEntries).toBe(3);
    expect(session.stats.toolCalls).toBe(1);
    expect(session.recorded).toEqual({ modelCalls: 3, toolCalls: 1 });
    expect(toolLinkProblems(session.contents)).toEqual([]);
    expect(texts(session.contents).filter((text) => text === 'first task')).toHaveLength(1);
    expect(session.ignored['history copied by a resumed session (assistant line)']).toBe(2);
    expect(session.ignored['history copied by a resumed session (user line)']).toBe(1);
    expect(checkImport(session)).toEqual({ kind: 'ok' });
  });

  it('#32.1 classifies a subagent file and the client compaction call file', async () => {
    const side = { isSidechain: true };
    const subagent = await importClaudeCode(
      lines([user('sub task', side), reply('m1', [{ type: 'text', text: 'ok' }], side)]),
      { file: 'agent-a1.jsonl' },
    );
    expect(subagent.role).toBe('subagent');
    const compact = { isSidechain: true, agentId: 'acompact-0123' };
    const compaction = await importClaudeCode(
      lines([
        user('the whole conversation, to summarize', compact),
        reply('m1', [{ type: 'text', text: 'Summary.' }], compact),
      ]),
      { file: 'agent-acompact-0123.jsonl' },
    );
    expect(compaction.role).toBe('compaction-call');
    const main = await importClaudeCode(
      lines([user('go'), reply('m1', [{ type: 'text', text: 'ok' }])]),
      {
        file: 's.jsonl',
      },
    );
    expect(main.role).toBeUndefined();
  });
});
