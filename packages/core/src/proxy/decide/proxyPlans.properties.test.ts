import { fc, test } from '@fast-check/vitest';
import { afterAll, describe, expect } from 'vitest';
import { INCLUDED_REPLY } from '../../core/compression/density/entry/unchangedRead.js';
import { formatFileInclusion } from '../../core/compression/fileInclusionFormat.js';
import { readAnthropicRequest } from '../wire/anthropicHistory.js';
import { parseJsonSpans } from '../wire/jsonSpans.js';
import { planProxyEdits } from './planProxyEdits.js';
import { ProxyPlans } from './proxyPlans.js';
import { RequestReadCache } from '../wire/requestReadCache.js';
import { anthropicBody, FILE_TEXT } from '../test-utils/wireRequests.js';

type Json = Record<string, unknown>;

const FILE = fc.constantFrom('/w/a.ts', '/w/b.ts', 'b.ts');
/** Few ids, so ids are reused by later calls and by calls of one reply. */
const ID = fc.constantFrom('t0', 't1', 't2');
const OUTPUT = fc.constantFrom<unknown>(FILE_TEXT, `${FILE_TEXT}\nmore`, 'ok', [
  { type: 'text', text: INCLUDED_REPLY },
]);
const CALL = fc.oneof(
  FILE.map((file_path) => ({ name: 'Read', input: { file_path } })),
  FILE.map((file_path) => ({
    name: 'Edit',
    input: { file_path, old_string: 'a', new_string: 'b' },
  })),
  FILE.map((file_path) => ({ name: 'Write', input: { file_path, content: 'x' } })),
  fc
    .constantFrom('cat /w/a.ts', 'npm test', 'sed -i s/a/b/ /w/b.ts', 'ls', 'cat b.ts')
    .map((command) => ({ name: 'Bash', input: { command } })),
);
/** How a call is answered: its output, an error, a repeated answer, or not at all (yet). */
const ANSWER = fc.oneof(
  { weight: 6, arbitrary: OUTPUT.map((content) => ({ kind: 'ok' as const, content })) },
  { weight: 1, arbitrary: fc.constant({ kind: 'error' as const, content: 'failed' }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'twice' as const, content: FILE_TEXT }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'none' as const, content: '' }) },
);
/** One reply of one or two calls (parallel calls, maybe with one id) and the user's answers. */
const TURN = fc
  .array(fc.tuple(ID, CALL, ANSWER), { minLength: 1, maxLength: 2 })
  .map((calls): Json[] => {
    const uses = calls.map(([id, call]) => ({ type: 'tool_use', id, ...call }));
    const results = calls.flatMap(([id, , answer]) => {
      const result = { type: 'tool_result', tool_use_id: id, content: answer.content };
      if (answer.kind === 'none') return [];
      if (answer.kind === 'error') return [{ ...result, is_error: true }];
      return answer.kind === 'twice' ? [result, result] : [result];
    });
    const answers = results.length === 0 ? [{ type: 'text', text: 'go on' }] : results;
    return [
      { role: 'assistant', content: uses },
      { role: 'user', content: answers },
    ];
  });

/** The user includes a file (`@` inclusion), which a later write makes stale. */
const INCLUSION = FILE.map((file): Json[] => [
  { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
  { role: 'user', content: [{ type: 'text', text: formatFileInclusion(file, FILE_TEXT) }] },
]);

/** A late answer: to the latest pending call with the id, if any (else a repeated answer). */
const LATE_ANSWER = fc.tuple(ID, OUTPUT).map(([id, content]): Json[] => [
  { role: 'assistant', content: [{ type: 'text', text: 'waiting' }] },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content }] },
]);

/** What the client sends next: more turns, fewer (a rewind), or an earlier result edited. */
const STEP = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('append'), turns: fc.nat(2) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rewind'), turns: fc.nat(2) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edit'), at: fc.nat(), text: OUTPUT }) },
);

/** The request as Claude Code sends it: the cache breakpoint on the newest message's last block. */
function request(messages: readonly Json[]): string {
  const last = messages.at(-1) as Json;
  const content = last.content as Json[];
  const marked = content.map((block, i) =>
    i === content.length - 1 ? { ...block, cache_control: { type: 'ephemeral' } } : block,
  );
  return anthropicBody([...messages.slice(0, -1), { ...last, content: marked }]);
}

function editResult(message: Json | undefined, text: unknown): void {
  const content = message?.content as Json[] | undefined;
  const first = content?.[0];
  if (message !== undefined && first?.type === 'tool_result') {
    message.content = [{ ...first, content: text }, ...(content ?? []).slice(1)];
  }
}

const reuse = { reused: 0, optimized: 0 };

describe('ProxyPlans', () => {
  afterAll(() => {
    // The sequences do reach the reuse (not only the full run the property compares it with).
    expect(reuse.reused).toBeGreaterThan(50);
    expect(reuse.optimized).toBeGreaterThan(50);
  });

  test.prop(
    [
      fc.array(
        fc.oneof(
          { weight: 5, arbitrary: TURN },
          { weight: 1, arbitrary: INCLUSION },
          { weight: 2, arbitrary: LATE_ANSWER },
        ),
        {
          minLength: 1,
          maxLength: 14,
        },
      ),
      fc.array(STEP, { minLength: 1, maxLength: 14 }),
    ],
    { numRuns: 300 },
  )(
    '#24.4 on random append/rewind/edit sequences the decisions with reuse equal a fresh optimize() on each request',
    (pool, steps) => {
      const reads = new RequestReadCache({ maxEntries: 3 });
      const plans = new ProxyPlans();
      const first: Json = { role: 'user', content: [{ type: 'text', text: 'go' }] };
      const turns = pool.map((messages) => messages.map((message) => ({ ...message })));
      let shown = 1;
      for (const step of steps) {
        if (step.kind === 'append') shown = Math.min(turns.length, shown + step.turns);
        if (step.kind === 'rewind') shown = Math.max(1, shown - step.turns);
        if (step.kind === 'edit') editResult(turns[step.at % shown]?.[1], step.text);
        const text = request([first, ...turns.slice(0, shown).flat()]);
        const read = reads.read({ api: 'anthropic', text, sessionId: 's' });
        const fresh = readAnthropicRequest(text, parseJsonSpans(text));
        if (read.outcome.kind !== 'history' || fresh.kind !== 'history') {
          throw new Error('the request was not read');
        }
        expect(plans.plan(read.outcome.wire, read)).toEqual(planProxyEdits(fresh.wire));
      }
      reuse.reused += plans.counts.reused;
      reuse.optimized += plans.counts.optimized;
    },
  );
});
