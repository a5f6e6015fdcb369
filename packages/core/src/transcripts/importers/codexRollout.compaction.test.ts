/** Codex remote compactions (`compacted` with a replacement history) and recorded usage. */
import { beforeAll, describe, expect, it } from 'vitest';
import type { IContent, TextBlock } from '../../services/history/IContent.js';
import { countO200kTokens } from '../../services/history/TokenCounter.js';
import { prepareReplay } from '../../replay/prepareReplay.js';
import {
  countRecordedCompactions,
  recordedSummaryOutputText,
} from '../../replay/recordedCompactions.js';
import { getReplayPolicy } from '../../replay/replayPolicies.js';
import { replaySession } from '../../replay/replaySession.js';
import { checkImport } from '../checkImport.js';
import { importCodexRollout } from './codexRollout.js';
import {
  encryptedItemTokens,
  encryptedPlaceholder,
  PLACEHOLDER_HEAD,
  PLACEHOLDER_HEAD_TOKENS,
  readCompaction,
} from './codexRolloutCompaction.js';

const T0 = Date.UTC(2026, 1, 3, 9);
const iso = (seconds: number): string => new Date(T0 + seconds * 1000).toISOString();
const line = (seconds: number, type: string, payload: object): string =>
  JSON.stringify({ timestamp: iso(seconds), type, payload });
const item = (seconds: number, payload: object): string => line(seconds, 'response_item', payload);
const user = (seconds: number, text: string): string =>
  item(seconds, { type: 'message', role: 'user', content: [{ type: 'input_text', text }] });
const call = (seconds: number, id: string, command: string): string =>
  item(seconds, {
    type: 'function_call',
    name: 'shell',
    call_id: id,
    arguments: JSON.stringify({ command: ['bash', '-lc', command] }),
  });
const output = (seconds: number, id: string, text: string): string =>
  item(seconds, {
    type: 'function_call_output',
    call_id: id,
    output: JSON.stringify({ output: text, metadata: { exit_code: 0 } }),
  });
const reasoning = (seconds: number): string =>
  item(seconds, { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Thinking.' }] });
/** A `token_count` event: the call's prompt tokens and the running total. */
const tokens = (seconds: number, input: number, total: number, estimate = input + 10): string =>
  line(seconds, 'event_msg', {
    type: 'token_count',
    info: {
      last_token_usage: {
        input_tokens: input,
        cached_input_tokens: Math.floor(input / 2),
        output_tokens: input === 0 ? 0 : 10,
        reasoning_output_tokens: 0,
        total_tokens: estimate,
      },
      total_token_usage: { total_tokens: total },
      model_context_window: 200_000,
    },
  });

const ASK = 'Rename the helper in tools/strings.py to slugify and update its callers.';
const ENCRYPTED = 'gAAAAB'.repeat(700);

/** A remote compaction after a tool output, then one more call and the answer (Codex 0.77 order). */
const ROLLOUT = [
  line(0, 'session_meta', { id: 'synthetic-1', cwd: '/home/dev/strings' }),
  line(0, 'turn_context', { model: 'codex-test-model', cwd: '/home/dev/strings' }),
  user(1, ASK),
  reasoning(2),
  call(3, 'c1', 'cat tools/strings.py'),
  tokens(3, 1000, 1010),
  output(4, 'c1', 'def make_slug(text):\n    return text.lower()\n'.repeat(40)),
  tokens(4, 1000, 1010),
  call(6, 'c2', 'grep -rn make_slug .'),
  tokens(6, 1500, 2520),
  output(7, 'c2', './app.py:3:from tools.strings import make_slug\n'.repeat(30)),
  tokens(37, 0, 2520, 900),
  line(37, 'compacted', {
    message: '',
    replacement_history: [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: ASK }] },
      { type: 'compaction', encrypted_content: ENCRYPTED },
      { type: 'ghost_snapshot', ghost_commit: { id: 'abc' } },
    ],
  }),
  line(37, 'event_msg', { type: 'context_compacted' }),
  call(40, 'c3', "sed -i 's/make_slug/slugify/' app.py tools/strings.py"),
  tokens(40, 1800, 4330),
  output(41, 'c3', ''),
  item(43, {
    type: 'message',
    role: 'assistant',
    content: [{ type: 'output_text', text: 'Done.' }],
  }),
  tokens(43, 1900, 6240),
];

/** The o200k vocabulary loads on the first count; load it outside the tests' time. */
beforeAll(() => {
  countO200kTokens('warm up');
});

const summaryOf = (contents: readonly IContent[]): IContent | undefined =>
  contents.find((entry) => entry.metadata?.isSummary === true);

describe('#32.2 a Codex remote compaction is a compaction boundary', () => {
  it('#32.2 the summary holds the kept user messages and the encrypted item at its counted size', async () => {
    const session = await importCodexRollout(ROLLOUT, { file: 'synthetic.jsonl' });
    expect(countRecordedCompactions(session.contents)).toBe(1);
    const summary = summaryOf(session.contents);
    const blocks = (summary?.blocks ?? []) as TextBlock[];
    expect(blocks.map((block) => block.type)).toEqual(['text', 'text']);
    expect(blocks[0]?.text).toBe(ASK);
    expect(blocks[1]?.text.startsWith(PLACEHOLDER_HEAD)).toBe(true);
    expect(countO200kTokens(blocks[1]?.text ?? '')).toBe(encryptedItemTokens(ENCRYPTED.length));
    expect(summary?.metadata).toMatchObject({
      isSummary: true,
      keptMessageBlocks: [0],
      timestamp: T0 + 37_000,
      compactionStartedAt: T0 + 7_000,
    });
    expect(recordedSummaryOutputText(summary as IContent)).toBe(blocks[1]?.text);
  });

  it('#32.2 what the replacement history holds besides counts in the import report', async () => {
    const session = await importCodexRollout(ROLLOUT, { file: 'synthetic.jsonl' });
    expect(session.ignored).toMatchObject({
      "ghost_snapshot item in a compaction's replacement history": 1,
    });
    expect(session.recorded).toEqual({ modelCalls: 4, toolCalls: 3 });
    expect(session.stats).toMatchObject({ aiEntries: 4, toolCalls: 3 });
    expect(checkImport(session)).toEqual({ kind: 'ok' });
  });

  it('#32.2 under `recorded` the first call after the boundary sends the replacement history', async () => {
    const session = await importCodexRollout(ROLLOUT, { file: 'synthetic.jsonl' });
    const prepared = await prepareReplay(session, {});
    const run = (id: 'recorded' | 'none') =>
      replaySession(prepared, { policy: getReplayPolicy(id), contextLimit: 128_000 });
    const [recorded, none] = [await run('recorded'), await run('none')];
    expect(recorded.compactionCalls).toEqual([2]);
    const replacement = countO200kTokens(ASK) + encryptedItemTokens(ENCRYPTED.length);
    const afterBoundary = recorded.series[2] ?? 0;
    expect(Math.abs(afterBoundary - replacement) / replacement).toBeLessThan(0.02);
    expect(none.series[2]).toBeGreaterThan(afterBoundary + 500);
    expect(recorded.recordedPromptTokens).toEqual([1000, 1500, 1800, 1900]);
  });

  it('#32.2 each call carries the usage its token_count recorded, and the session the window', async () => {
    const session = await importCodexRollout(ROLLOUT, { file: 'synthetic.jsonl' });
    const usage = session.contents
      .filter((entry) => entry.speaker === 'ai')
      .map((entry) => entry.metadata?.usage);
    expect(usage).toEqual([
      { promptTokens: 1000, completionTokens: 10, totalTokens: 1010, cachedTokens: 500 },
      { promptTokens: 1500, completionTokens: 10, totalTokens: 1510, cachedTokens: 750 },
      { promptTokens: 1800, completionTokens: 10, totalTokens: 1810, cachedTokens: 900 },
      { promptTokens: 1900, completionTokens: 10, totalTokens: 1910, cachedTokens: 950 },
    ]);
    expect(session.recordedContextWindow).toBe(200_000);
  });

  it('#32.2 older rollouts write the count before the reply: it is still that reply’s', async () => {
    const early = [
      user(1, ASK),
      tokens(2, 1000, 1010),
      reasoning(2),
      call(3, 'c1', 'ls'),
      output(4, 'c1', 'a.py'),
      tokens(4, 1000, 1010),
      tokens(5, 1200, 2220),
      call(6, 'c2', 'cat a.py'),
      output(7, 'c2', 'print(1)'),
    ];
    const session = await importCodexRollout(early, { file: 'early.jsonl' });
    const prompts = session.contents
      .filter((entry) => entry.speaker === 'ai')
      .map((entry) => entry.metadata?.usage?.promptTokens);
    expect(prompts).toEqual([1000, 1200]);
  });

  it('#32.2 a legacy `compacted` line with a summary message stays that summary', async () => {
    const legacy = [
      user(1, ASK),
      call(2, 'c1', 'ls'),
      output(3, 'c1', 'a.py'),
      line(4, 'compacted', { message: 'Summary: the helper lives in tools/strings.py.' }),
      call(5, 'c2', 'cat tools/strings.py'),
      output(6, 'c2', 'def make_slug(): ...'),
    ];
    const session = await importCodexRollout(legacy, { file: 'legacy.jsonl' });
    const summary = summaryOf(session.contents);
    expect(summary?.blocks).toEqual([
      { type: 'text', text: 'Summary: the helper lives in tools/strings.py.' },
    ]);
    expect(summary?.metadata?.keptMessageBlocks).toBeUndefined();
    expect(countRecordedCompactions(session.contents)).toBe(1);
  });

  it('#32.2 a `compacted` line with neither summary nor history is counted, not dropped silently', () => {
    expect(readCompaction({ message: '' })).toEqual({
      blocks: [],
      keptMessageBlocks: [],
      ignored: ['compacted line without a summary or replacement history'],
    });
  });
});

describe('#32.2 the encrypted item’s placeholder', () => {
  it('#32.2 counts exactly its documented size in o200k tokens', () => {
    expect(countO200kTokens(PLACEHOLDER_HEAD)).toBe(PLACEHOLDER_HEAD_TOKENS);
    for (const chars of [0, 40, 100, 1000, 6308, 7012, 20_000]) {
      const expected = Math.max(PLACEHOLDER_HEAD_TOKENS, encryptedItemTokens(chars));
      expect(countO200kTokens(encryptedPlaceholder(chars).text)).toBe(expected);
    }
  });
});
