import { describe, expect, it } from 'vitest';
import { ConversationStore } from './conversationStore.js';
import type { CompactOutcome } from '../budget/compactWire.js';
import { densifyRequest, type DensifyOptions } from '../densify/densifyRequest.js';
import { entryReplies, settleReplies, type ReplySite } from './entryReplies.js';
import { EntryReplyDecisions } from './entryReplyDecisions.js';
import { proxyRiskBudget } from './proxyLedger.js';
import { formatRequestLine } from '../meter/proxyReport.js';
import { fileText, longSessionMessages } from '../test-utils/longSession.js';
import { proxyRequest } from '../test-utils/proxyRecords.js';
import {
  anthropicBody,
  chatBody,
  chatTurn,
  densifyOptions,
  FILE_TEXT,
  POINTER_JSON,
} from '../test-utils/wireRequests.js';

type Json = Record<string, unknown>;

const OUTPUT = Array.from({ length: 40 }, (_, i) => `src/m${i}.ts:${i}: match ${i}`).join('\n');

/** Any proxy reply at entry as plain text, with the call it names and the recall id it gives. */
const REPLY =
  /\[(?:unchanged since the read in|same output as) call ([^ \]]+) — that copy is still above\] \(original: `dense recall (r[0-9a-f]{10})`\)/g;

const replies = (text: string) => [...text.matchAll(REPLY)].map((m) => m[1]);

const user = (text: string): Json => ({ role: 'user', content: [{ type: 'text', text }] });
const call = (id: string, name: string, input: Json): Json => ({
  role: 'assistant',
  content: [{ type: 'tool_use', id, name, input }],
});
const result = (id: string, content: string): Json => ({
  role: 'user',
  content: [{ type: 'tool_result', tool_use_id: id, content }],
});
const read = (id: string, path = '/w/a.ts', text = FILE_TEXT): Json[] => [
  call(id, 'Read', { file_path: path }),
  result(id, text),
];
const grep = (id: string, text = OUTPUT): Json[] => [
  call(id, 'Grep', { pattern: 'match' }),
  result(id, text),
];

function densify(store: ConversationStore, body: string, extra: Partial<DensifyOptions> = {}) {
  return densifyRequest(densifyOptions(body, { store, ...extra }));
}

/** `sent` with every reply put back as the JSON string of the original the recall id names. */
function expanded(sent: string, originals: ReadonlyMap<string, string>): string {
  return sent.replace(
    new RegExp(`"${REPLY.source}"`, 'g'),
    (_, __, id: string) => JSON.stringify(originals.get(id)) ?? 'missing',
  );
}

describe('replies at entry in the proxy', () => {
  it('#24.1 an unchanged re-read (Anthropic) goes out as the reply naming the earlier read, with its recall id', () => {
    const store = new ConversationStore();
    const body = anthropicBody([user('look'), ...read('r1'), ...read('r2')]);
    const out = densify(store, body);
    const sent = out.body.toString();
    expect(replies(sent)).toEqual(['r1']);
    expect(out.replies).toBe(1);
    expect(out.recalls).toHaveLength(1);
    expect(out.recalls[0]?.text).toBe(FILE_TEXT);
    expect(sent).toContain(`dense recall ${out.recalls[0]?.id}`);
    expect(sent.length).toBeLessThan(body.length);
    const originals = new Map(out.recalls.map((r) => [r.id, r.text]));
    expect(expanded(sent, originals)).toBe(body);
  });

  it('#24.1 the same output of a call that touches no file (Chat Completions) goes out as the same-output reply', () => {
    const store = new ConversationStore();
    const body = chatBody([
      ...chatTurn('c1', 'search', { pattern: 'match' }, OUTPUT),
      ...chatTurn('c2', 'search', { pattern: 'match' }, OUTPUT),
    ]);
    const out = densify(store, body, { api: 'openai-chat' });
    const sent = out.body.toString();
    expect(sent).toContain('[same output as call c1 — that copy is still above]');
    expect(expanded(sent, new Map(out.recalls.map((r) => [r.id, r.text])))).toBe(body);
  });

  it('#24.1 a result already in the cached history is never replied to (only new ones are)', () => {
    const store = new ConversationStore();
    const body = anthropicBody([user('look'), ...read('r1'), ...read('r2'), ...grep('g1')]);
    expect(replies(densify(store, body).body.toString())).toEqual([]);
  });

  it('#24.1 the reply is sticky: the same bytes on every later request', () => {
    const store = new ConversationStore();
    const first = densify(
      store,
      anthropicBody([user('look'), ...grep('g1'), ...grep('g2')]),
    ).body.toString();
    const laterBody = anthropicBody([user('look'), ...grep('g1'), ...grep('g2'), ...read('r1')]);
    const later = densify(store, laterBody, { now: 1000 });
    const sent = later.body.toString();
    expect(replies(sent)).toEqual(['g1']);
    const cut = first.indexOf('],"system"');
    expect(sent.slice(0, cut)).toBe(first.slice(0, cut));
    expect(later.recalls).toHaveLength(0);
  });

  it('#24.1 what a reply keeps out counts as saved in the risk budget, as the CLI counts it', () => {
    const riskAfter = (entryReplies: boolean) => {
      const store = new ConversationStore();
      const turns = [user('look'), ...grep('g1'), ...grep('g2')];
      const first = densify(store, anthropicBody(turns), { entryReplies });
      densify(store, anthropicBody([...turns, ...read('r1')]), { entryReplies, now: 60_000 });
      return proxyRiskBudget(store.get(first.conversationId ?? '', 60_000), 'anthropic', 0);
    };
    // Both calls (the one the reply entered with, as the CLI counts it, and the next) read the
    // output less its reply no more: ~1/4 token a character, at 0.1 a token; booked once each.
    const perCall = (OUTPUT.length / 4) * 0.1;
    const saved = riskAfter(true) - riskAfter(false);
    expect(saved).toBeGreaterThan(1.5 * perCall);
    expect(saved).toBeLessThan(2 * perCall);
  });

  it('#24.1 a result first seen with no earlier copy stays as it is, even when a copy appears before it later', () => {
    const store = new ConversationStore();
    densify(store, anthropicBody([user('look'), ...grep('g1', 'other'), ...grep('g2')]));
    // A client that rewrote its history: the copy is new, the result already went out whole.
    const body = anthropicBody([user('look'), ...grep('g1'), ...grep('g2'), ...read('r9')]);
    expect(densify(store, body, { now: 1000 }).body.toString()).toBe(body);
  });

  it('#24.1 a re-read after a write of the file, or with another content, is not replied to', () => {
    const edit = [
      call('e1', 'Edit', { file_path: '/w/a.ts', old_string: 'v1', new_string: 'w1' }),
      result('e1', 'The file /w/a.ts has been updated.'),
    ];
    const store = new ConversationStore();
    const written = anthropicBody([user('look'), ...read('r1'), ...edit, ...read('r2')]);
    expect(replies(densify(store, written).body.toString())).toEqual([]);
    const other = anthropicBody([user('look'), ...read('r1'), ...read('r2', '/w/b.ts')]);
    expect(replies(densify(new ConversationStore(), other).body.toString())).toEqual([]);
  });

  it('#24.1 a call id used twice in the request is never named', () => {
    const body = anthropicBody([
      user('look'),
      ...grep('g1'),
      ...grep('g1', 'other'),
      ...grep('g2'),
    ]);
    expect(replies(densify(new ConversationStore(), body).body.toString())).toEqual([]);
  });

  it('#24.1 when the named result is no longer verbatim in a later request, the reply goes out as the original, and stays so', () => {
    const store = new ConversationStore();
    densify(store, anthropicBody([user('look'), ...grep('g1'), ...grep('g2')]));
    // The client cleared the old output (as Claude Code does to old tool results).
    const cleared = anthropicBody([
      user('look'),
      ...grep('g1', '[Old tool result content cleared]'),
      ...grep('g2'),
      ...read('r1'),
    ]);
    const out = densify(store, cleared, { now: 1000 });
    expect(out.body.toString()).toBe(cleared);
    // Shown whole once, it is never turned back into the reply.
    const restored = anthropicBody([user('look'), ...grep('g1'), ...grep('g2'), ...read('r1')]);
    expect(densify(store, restored, { now: 2000 }).body.toString()).toBe(restored);
  });

  it('#24.1 when the named read is pointed as stale, no reply names it', () => {
    const edit = [
      call('e1', 'Edit', { file_path: '/w/a.ts', old_string: 'v1', new_string: 'w1' }),
      result('e1', 'The file /w/a.ts has been updated.'),
    ];
    const store = new ConversationStore();
    densify(store, anthropicBody([user('look'), ...read('r1'), ...read('r2')]));
    const body = anthropicBody([user('look'), ...read('r1'), ...read('r2'), ...edit]);
    const sent = densify(store, body, { now: 1000, pressureTokens: 0 }).body.toString();
    expect(sent).toMatch(POINTER_JSON);
    expect(replies(sent)).toEqual([]);
  });

  it('#24.1 with entry replies off the request goes out as before', () => {
    const body = anthropicBody([user('look'), ...read('r1'), ...read('r2')]);
    const out = densify(new ConversationStore(), body, { entryReplies: false });
    expect(out.body.toString()).toBe(body);
  });

  it('#24.1 an unchanged `cat` (Codex, Responses) goes out as the reply naming the earlier one', () => {
    const cat = (id: string): Json[] => [
      {
        type: 'function_call',
        call_id: id,
        name: 'shell',
        arguments: JSON.stringify({ command: ['cat', '/w/a.ts'] }),
      },
      { type: 'function_call_output', call_id: id, output: FILE_TEXT },
    ];
    const body = JSON.stringify({
      model: 'gpt-test',
      instructions: 'be brief',
      input: [
        { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix a.ts' }] },
        ...cat('c1'),
        ...cat('c2'),
      ],
    });
    const out = densify(new ConversationStore(), body, { api: 'openai-responses' });
    const sent = out.body.toString();
    expect(replies(sent)).toEqual(['c1']);
    expect(expanded(sent, new Map(out.recalls.map((r) => [r.id, r.text])))).toBe(body);
  });

  it("#24.1 a reply whose named read the working budget's compaction takes out goes out as the original", () => {
    const again = (id: string, round: number): Json[] => [
      call(id, 'Read', { file_path: `/w/src/m${round}.ts` }),
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: id, content: fileText(round, 4_000) }],
      },
    ];
    const history = longSessionMessages(30, 4_000);
    const budget = { workingBudget: { tokens: 20_000, longContext: false } };
    const store = new ConversationStore();
    // The newest read repeats the last round's read, which the compaction keeps.
    const kept = densify(store, anthropicBody([...history, ...again('late', 29)]), budget);
    expect(kept.compaction?.kind).toBe('compacted');
    expect(replies(kept.body.toString())).toEqual(['read29']);
    // Now it repeats the first round's read, which the compaction summarized.
    const body = anthropicBody([...history, ...again('late', 29), ...again('early', 0)]);
    const out = densify(store, body, { ...budget, now: 1000 });
    const sent = out.body.toString();
    expect(out.compaction).toBeDefined();
    expect(sent).not.toContain('"id":"read0"');
    expect(replies(sent)).toEqual(['read29']);
    expect(sent).toContain(JSON.stringify(fileText(0, 4_000)));
  });

  it('#24.1 the metering line counts the replies beside the pointers', () => {
    const line = formatRequestLine(
      proxyRequest({ pointers: 0, replies: 2, removedChars: 8_000 }),
      false,
    );
    expect(line).toContain('(0 ptr, 2 reply, +0');
    expect(formatRequestLine(proxyRequest({ pointers: 1 }), false)).not.toContain('reply');
  });

  it('#24.1 a request the budget runs again for (a reply named a result its compaction took out) is booked once, by the run that compacted', () => {
    // Replies in message 9 naming messages 1 and 8; each run's compaction stands for messages 0–4.
    const reply = (position: string, referent: number): ReplySite => ({
      callId: position,
      messageIndex: 9,
      blockIndex: 0,
      start: referent * 10,
      end: referent * 10 + 5,
      recallId: 'r0000000000',
      pointer: 'reply',
      referentMessages: [referent],
      position,
    });
    const run = (kind: 'kept' | 'compacted', booking: number): CompactOutcome => ({
      kind,
      parts: [],
      chars: 0,
      cut: 5,
      removedChars: 0,
      recalls: [],
      booking,
    });
    const settle = (runs: CompactOutcome[]) =>
      settleReplies(
        { sites: [reply('a', 1), reply('b', 8)], recalls: [] },
        {
          budget: () => runs.shift() ?? run('kept', 0),
          compactionStart: () => 0,
          decisions: new EntryReplyDecisions(),
          readOnly: true,
        },
      ).compacted;
    // The first run compacts and takes out message 1; the second repeats that compaction.
    expect(settle([run('compacted', -500), run('kept', 300)])).toMatchObject({
      kind: 'compacted',
      booking: -500,
    });
    // No run compacts: the last run's booking, once.
    expect(settle([run('kept', 300), run('kept', 250)])).toMatchObject({
      kind: 'kept',
      booking: 250,
    });
  });

  it('#24.4 a reply that stands is the same site object on the next request (the splice resumes past the sites it saw by identity)', () => {
    const store = new ConversationStore();
    const decisions = new EntryReplyDecisions();
    const sitesOf = (messages: Json[]) => {
      const body = Buffer.from(anthropicBody(messages));
      const read = store.reads.read({ api: 'anthropic', body, sessionId: 's' });
      if (read.outcome.kind !== 'history') throw new Error('no history read');
      const { wire } = read.outcome;
      return entryReplies({ wire, decisions, edited: [], readOnly: false }).sites;
    };
    const turns = [user('look'), ...grep('g1'), ...grep('g2')];
    expect(sitesOf(turns)[0]?.callId).toBe('g2');
    // The next request reads the previous newest message again (its breakpoint moves); from the
    // one after, the reply's message is a verified one.
    const [second] = sitesOf([...turns, ...read('r1')]);
    const [third] = sitesOf([...turns, ...read('r1'), ...read('r2', '/w/b.ts')]);
    expect(second?.callId).toBe('g2');
    expect(third).toBe(second);
  });
});
