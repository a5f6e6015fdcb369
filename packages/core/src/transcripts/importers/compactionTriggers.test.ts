/** Who asked for a recorded Claude Code compaction: the user's `/compact` or the client itself. */
import { describe, expect, it } from 'vitest';
import { importClaudeCodeRecords } from './claudeCode.js';
import { compactionTriggers } from './compactionTriggers.js';

type Json = Record<string, unknown>;
const line = (fields: Json): Json => ({ isSidechain: false, sessionId: 's', ...fields });
const user = (content: string): Json => line({ type: 'user', message: { role: 'user', content } });
const reply = (id: string, text: string): Json =>
  line({
    type: 'assistant',
    message: { id, role: 'assistant', model: 'x', content: [{ type: 'text', text }] },
  });
const summary = (): Json =>
  line({ type: 'user', isCompactSummary: true, message: { role: 'user', content: 'Summary.' } });
const command = (): Json =>
  user('<command-name>/compact</command-name>\n<command-message>compact</command-message>');
const boundary = (trigger: string): Json =>
  line({ type: 'system', subtype: 'compact_boundary', compactMetadata: { trigger, preTokens: 9 } });

describe('#35.3 compaction triggers (Claude Code)', () => {
  it('#35.3 reads the trigger a 2.x compact_boundary records', () => {
    for (const trigger of ['manual', 'auto'] as const) {
      const records = [user('go'), reply('m1', 'ok'), boundary(trigger), summary()];
      expect([...compactionTriggers(records).values()]).toEqual([trigger]);
    }
  });

  it('#35.3 a /compact command beside a 1.0.x summary, written before or after it, makes it manual', () => {
    const written = summary();
    const after = [user('go'), reply('m1', 'ok'), written, command(), reply('m2', 'next')];
    const before = [user('go'), reply('m1', 'ok'), command(), written];
    for (const records of [after, before]) {
      expect([...compactionTriggers(records).entries()]).toEqual([[written, 'manual']]);
    }
  });

  it('#35.3 a cancelled /compact (a model line follows it) and a summary with no evidence say nothing', () => {
    const cancelled = [user('go'), command(), reply('m1', 'No response requested.'), summary()];
    expect(compactionTriggers(cancelled).size).toBe(0);
    const imported = importClaudeCodeRecords(cancelled, { file: 'chat.json' }).contents.at(-1);
    expect(imported?.metadata?.isSummary).toBe(true);
    expect(imported?.metadata).not.toHaveProperty('compactionTrigger');
  });

  it('#35.3 the imported summary carries the trigger', () => {
    const records = [user('go'), reply('m1', 'ok'), summary(), command()];
    const contents = importClaudeCodeRecords(records, { file: 'chat.json' }).contents;
    const imported = contents.find((entry) => entry.metadata?.isSummary === true);
    expect(imported?.metadata?.compactionTrigger).toBe('manual');
  });
});
