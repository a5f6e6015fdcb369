import { describe, expect, it } from 'vitest';
import { ConversationStore } from './conversationStore.js';
import { densifyRequest, type DensifyOptions } from '../densify/densifyRequest.js';
import { longSessionMessages } from '../test-utils/longSession.js';
import { anthropicBody, chatBody, chatTurn, densifyOptions } from '../test-utils/wireRequests.js';

type Json = Record<string, unknown>;

/** A test run's output: 40 passing cases, the ones in `failing` failing. */
function testRun(failing: readonly number[] = []): string {
  const cases = Array.from({ length: 40 }, (_, i) =>
    failing.includes(i)
      ? `  ✗ parser case ${i} — expected 3, received 4 (src/parser.test.ts:${10 + i})`
      : `  ✓ parser case ${i} handles its input (${i + 2} ms)`,
  );
  const passed = 40 - failing.length;
  return ['> vitest run src/parser.test.ts', ...cases, `Tests ${passed} passed (40)`].join('\n');
}

const MARKER =
  /\[lines (\d+)–(\d+) of call ([^']+)'s output repeat here unchanged \(still above\)/g;
const RECALL = /\(original: `dense recall (r[0-9a-f]{10})`\)/;

const named = (text: string) => [...text.matchAll(MARKER)].map((m) => m[3]);

const user = (text: string): Json => ({ role: 'user', content: [{ type: 'text', text }] });
const run = (id: string, output: string, command = 'npx vitest run src/parser.test.ts'): Json[] => [
  { role: 'assistant', content: [{ type: 'tool_use', id, name: 'Bash', input: { command } }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: output }] },
];
const read = (id: string, text: string): Json[] => [
  {
    role: 'assistant',
    content: [{ type: 'tool_use', id, name: 'Read', input: { file_path: '/w/a.ts' } }],
  },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: text }] },
];
const edit = (id: string): Json[] => [
  {
    role: 'assistant',
    content: [
      {
        type: 'tool_use',
        id,
        name: 'Edit',
        input: { file_path: '/w/a.ts', old_string: 'v1', new_string: 'w1' },
      },
    ],
  },
  {
    role: 'user',
    content: [
      { type: 'tool_result', tool_use_id: id, content: 'The file /w/a.ts has been updated.' },
    ],
  },
];

function densify(store: ConversationStore, body: string, extra: Partial<DensifyOptions> = {}) {
  return densifyRequest(densifyOptions(body, { store, repeatedLinesReplies: true, ...extra }));
}

/** The text the model sees for the result of call `id` in a sent request. */
function sentResult(sent: string, id: string): unknown {
  const body = JSON.parse(sent) as { messages: Json[] };
  for (const message of body.messages) {
    if (message.role === 'tool' && message.tool_call_id === id) return message.content;
    if (!Array.isArray(message.content)) continue;
    for (const block of message.content as Json[])
      if (block.type === 'tool_result' && block.tool_use_id === id) return block.content;
  }
  return undefined;
}

describe('repeated-lines replies at entry in the proxy', () => {
  it('#24.1 a re-run test output that changed in a few lines (Anthropic) goes out as markers naming the earlier run plus the changed lines, with its recall id', () => {
    const before = testRun([7, 30]);
    const after = testRun([30]);
    const body = anthropicBody([user('fix the parser'), ...run('t1', before), ...run('t2', after)]);
    const out = densify(new ConversationStore(), body);
    const reply = sentResult(out.body.toString(), 't2') as string;
    expect(named(reply).length).toBeGreaterThan(0);
    expect(new Set(named(reply))).toEqual(new Set(['t1']));
    // The changed lines stay verbatim; the earlier run is untouched.
    expect(reply).toContain('✓ parser case 7 handles its input');
    expect(reply).toContain('Tests 39 passed (40)');
    expect(sentResult(out.body.toString(), 't1')).toBe(before);
    expect(out.replies).toBe(1);
    expect(out.recalls.map((r) => r.text)).toEqual([after]);
    expect(RECALL.exec(reply)?.[1]).toBe(out.recalls[0]?.id);
    expect(out.body.length).toBeLessThan(body.length - 500);
  });

  it('#24.1 a re-run output that changed in a few lines (Chat Completions) goes out as markers plus the changed lines, and is sticky', () => {
    const turns = [
      ...chatTurn('c1', 'shell', { command: 'npm test' }, testRun([3])),
      ...chatTurn('c2', 'shell', { command: 'npm test' }, testRun([])),
    ];
    const store = new ConversationStore();
    const first = densify(store, chatBody(turns), { api: 'openai-chat' });
    const reply = sentResult(first.body.toString(), 'c2') as string;
    expect(named(reply)).toContain('c1');
    expect(reply).toContain('Tests 40 passed (40)');
    const more = [...turns, ...chatTurn('c3', 'shell', { command: 'ls' }, 'a.ts')];
    const later = densify(store, chatBody(more), { api: 'openai-chat', now: 1000 });
    expect(sentResult(later.body.toString(), 'c2')).toBe(reply);
    expect(later.recalls).toHaveLength(0);
  });

  it('#24.1 when a run the markers name is cleared later, the reply goes out as the original, and stays so', () => {
    const store = new ConversationStore();
    const turns = (cleared: boolean) => [
      user('fix the parser'),
      ...run('t1', cleared ? '[Old tool result content cleared]' : testRun([7])),
      ...run('t2', testRun([])),
    ];
    expect(named(densify(store, anthropicBody(turns(false))).body.toString())).toContain('t1');
    const cleared = anthropicBody([...turns(true), ...run('t3', 'ok', 'ls')]);
    expect(densify(store, cleared, { now: 1000 }).body.toString()).toBe(cleared);
    const restored = anthropicBody([...turns(false), ...run('t3', 'ok', 'ls')]);
    expect(densify(store, restored, { now: 2000 }).body.toString()).toBe(restored);
  });

  it('#24.1 when the read the markers name is pointed as stale later, no marker names it (the pointer stands for both reads)', () => {
    const file = (changed: string) =>
      Array.from({ length: 40 }, (_, i) =>
        i === 20 ? changed : `export const v${i} = ${i};`,
      ).join('\n');
    const store = new ConversationStore();
    const turns = [user('look'), ...read('r1', file('// one')), ...read('r2', file('// two'))];
    expect(named(densify(store, anthropicBody(turns)).body.toString())).toEqual(['r1', 'r1']);
    const body = anthropicBody([...turns, ...edit('e1')]);
    const sent = densify(store, body, { now: 1000, pressureTokens: 0 }).body.toString();
    expect(sent).toContain('Result pruned (stale read)');
    expect(named(sent)).toEqual([]);
  });

  it("#24.1 when the working budget's compaction takes out the run the markers name, the reply goes out as the original", () => {
    const history = longSessionMessages(30, 4_000);
    const budget = { workingBudget: { tokens: 20_000, longContext: false } };
    const early = [...history.slice(0, 3), ...run('t1', testRun([7])), ...history.slice(3)];
    const body = anthropicBody([...early, ...run('t2', testRun([]))]);
    const out = densify(new ConversationStore(), body, budget);
    const sent = out.body.toString();
    expect(out.compaction?.kind).toBe('compacted');
    expect(sent).not.toContain('"id":"t1"');
    expect(named(sent)).toEqual([]);
    expect(sentResult(sent, 't2')).toBe(testRun([]));
    // Kept by the compaction, the same run is named.
    const late = anthropicBody([...history, ...run('t1', testRun([7])), ...run('t2', testRun([]))]);
    expect(named(densify(new ConversationStore(), late, budget).body.toString())).toContain('t1');
  });

  it('#24.1 a result already in the cached history, or first seen with nothing to repeat, is never turned into markers', () => {
    const cached = anthropicBody([
      user('fix the parser'),
      ...run('t1', testRun([7])),
      ...run('t2', testRun([])),
      ...run('t3', 'ok', 'ls'),
    ]);
    expect(densify(new ConversationStore(), cached).body.toString()).toBe(cached);
    // The same run as the newest result is new: it is replied to.
    const fresh = anthropicBody([
      user('fix the parser'),
      ...run('t1', testRun([7])),
      ...run('t2', testRun([])),
    ]);
    expect(named(densify(new ConversationStore(), fresh).body.toString())).toContain('t1');
    const store = new ConversationStore();
    densify(
      store,
      anthropicBody([user('fix'), ...run('t1', 'no tests yet'), ...run('t2', testRun([]))]),
    );
    // A client that rewrote its history: the repeated lines are new, the result already went out whole.
    const rewritten = anthropicBody([
      user('fix'),
      ...run('t1', testRun([7])),
      ...run('t2', testRun([])),
      ...run('t3', 'ok', 'ls'),
    ]);
    expect(densify(store, rewritten, { now: 1000 }).body.toString()).toBe(rewritten);
  });

  it('#24.1 a repeated-lines reply never goes out with the bytes of another reply to the same result', () => {
    const same = anthropicBody([user('fix'), ...run('t1', testRun([])), ...run('t2', testRun([]))]);
    expect(densify(new ConversationStore(), same).body.toString()).toContain(
      '[same output as call t1',
    );
    // Another conversation: the same result now repeats only lines of the same call.
    const lines = anthropicBody([
      user('fix'),
      ...run('t1', testRun([7])),
      ...run('t2', testRun([])),
    ]);
    const reply = sentResult(densify(new ConversationStore(), lines).body.toString(), 't2');
    expect(named(reply as string)).toContain('t1');
    expect(reply).not.toContain('same output');
  });

  it('#24.1 repeated-lines replies are on by default, off with repeatedLinesReplies false, and entry replies off turns them off too', () => {
    const body = anthropicBody([
      user('fix'),
      ...run('t1', testRun([7])),
      ...run('t2', testRun([])),
    ]);
    expect(named(densify(new ConversationStore(), body).body.toString())).toContain('t1');
    const out = densify(new ConversationStore(), body, { entryReplies: false });
    expect(out.body.toString()).toBe(body);
    const byDefault = densifyRequest(densifyOptions(body, { store: new ConversationStore() }));
    expect(named(byDefault.body.toString())).toContain('t1');
    const off = densify(new ConversationStore(), body, { repeatedLinesReplies: false });
    expect(off.body.toString()).toBe(body);
  });

  it("#24.1 a result repeating its own call's parameter under a name the client did not send (NotebookEdit's new_source) goes out as it is", () => {
    const source = Array.from(
      { length: 20 },
      (_, i) => `value_${i} = compute_the_value_of_cell_entry(${i}, scale=${i * 3})`,
    ).join('\n');
    const call: Json = {
      role: 'assistant',
      content: [
        {
          type: 'tool_use',
          id: 'n1',
          name: 'NotebookEdit',
          input: { notebook_path: '/w/a.ipynb', cell_id: 'c1', new_source: source },
        },
      ],
    };
    const result = `Updated cell c1 with ${source}`;
    const answer: Json = {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 'n1', content: result }],
    };
    const out = densify(
      new ConversationStore(),
      anthropicBody([user('edit the notebook'), call, answer]),
    );
    expect(sentResult(out.body.toString(), 'n1')).toBe(result);
  });
});
