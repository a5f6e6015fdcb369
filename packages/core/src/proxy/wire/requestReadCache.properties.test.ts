import { createHash } from 'node:crypto';
import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { requestCacheProvider } from '../../cache/cacheRules.js';
import { readAnthropicRequest } from './anthropicHistory.js';
import { JsonSpanError, parseJsonSpans } from './jsonSpans.js';
import { readOpenAIRequest } from './openaiHistory.js';
import { RequestReadCache } from './requestReadCache.js';
import { MAX_PIECES } from './keptPieces.js';
import type { ReadOutcome, WireApi } from './wireHistory.js';

type Json = Record<string, unknown>;

const TOOL = fc.constantFrom('Read', 'Edit', 'Bash', 'Write');
const TEXT = fc.string({ maxLength: 30, unit: 'binary' });
/** Few ids and files, so ids are reused and reads go stale. */
const ID = fc.integer({ min: 0, max: 5 });
const FILE = fc.constantFrom('/w/a.ts', '/w/b.ts');

/** Some results keep a 1-hour breakpoint (one the client set on an earlier request). */
const anthropicTurn = fc
  .tuple(ID, TOOL, FILE, TEXT, fc.boolean())
  .map(([n, name, file, out, hour]) => [
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: `t${n}`, name, input: { file_path: file, content: 'x' } }],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: `t${n}`,
          content: out,
          ...(hour ? { cache_control: { type: 'ephemeral', ttl: '1h' } } : {}),
        },
      ],
    },
  ]);
const chatTurn = fc.tuple(ID, TOOL, FILE, TEXT).map(([n, name, file, out]) => [
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: `c${n}`, type: 'function', function: { name, arguments: `{"file_path":"${file}"}` } },
    ],
  },
  { role: 'tool', tool_call_id: `c${n}`, content: out },
]);
const responsesTurn = fc.tuple(ID, FILE, TEXT).map(([n, file, out]) => [
  {
    type: 'function_call',
    call_id: `c${n}`,
    name: 'shell',
    arguments: JSON.stringify({ command: ['cat', file] }),
  },
  { type: 'function_call_output', call_id: `c${n}`, output: out },
]);

/** What the client does next: send more turns, go back, edit an earlier turn, send garbage. */
const STEP = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('append'), turns: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('rewind'), turns: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('edit'), at: fc.nat(), text: TEXT }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('other-conversation') }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('broken') }) },
);

function fullRead(api: WireApi, text: string): ReadOutcome | 'throws' {
  try {
    const root = parseJsonSpans(text);
    return api === 'anthropic'
      ? readAnthropicRequest(text, root)
      : readOpenAIRequest(text, root, api);
  } catch {
    return 'throws';
  }
}

/**
 * The cached read of `text`; `byBody`: given only the bytes, its text decoded by the cache (only
 * the new bytes, when it resumes) must be the whole body decoded, and its 1-hour verdict from the
 * kept prefix's plus the rest must be a scan of the whole text.
 */
function cachedRead(
  cache: RequestReadCache,
  api: WireApi,
  text: string,
  byBody = false,
): ReadOutcome | 'throws' {
  try {
    const sessionId = 'one-session';
    const bytes = Buffer.from(text, 'utf8');
    const read = byBody
      ? cache.read({ api, body: bytes, sessionId })
      : cache.read({ api, text, sessionId });
    // A resumed read keeps its new bytes as a copy: the body may be reused at once.
    if (byBody && cache.lastPath === 'resumed') bytes.fill(0x20);
    expect(read.text).toBe(text);
    if (read.outcome.kind === 'history') {
      // The pieces (kept prefix, new part) slice as the whole text, and stay few.
      for (const { start, end } of read.outcome.wire.messageSpans) {
        expect(read.segments.slice(start, end)).toBe(text.slice(start, end));
      }
      expect(read.segments.pieceCount).toBeLessThanOrEqual(MAX_PIECES);
    }
    const anchors = read.byteAnchors;
    if (byBody && read.outcome.kind === 'history' && read.key !== undefined) {
      // Counted only past the messages the kept read had: still each start's byte offset.
      expect(anchors === undefined).toBe(Buffer.byteLength(text) === text.length);
      for (const [index, chars] of (anchors?.chars ?? []).entries()) {
        expect(anchors?.bytes[index]).toBe(Buffer.byteLength(text.slice(0, chars)));
      }
    }
    if (byBody && api === 'anthropic') {
      const prefix = read.oneHourTtlPrefix;
      const spans = read.outcome.kind === 'history' ? read.outcome.wire.messageSpans : [];
      // Known up to the newest message: only that message is scanned on the next request.
      expect(prefix?.chars).toBe(spans.length > 1 ? spans.at(-1)?.start : undefined);
      expect(requestCacheProvider(api, read.text, prefix)).toBe(requestCacheProvider(api, text));
    }
    if (read.outcome.kind === 'history') {
      // The prefix before the newest message, hashed incrementally, is the whole prefix's hash.
      const newest = read.outcome.wire.messageSpans.at(-1)?.start ?? 0;
      const before = Buffer.from(text.slice(0, newest), 'utf8');
      expect(read.newestMessagePrefix?.chars).toBe(newest);
      expect(read.newestMessagePrefix?.bytes).toBe(before.length);
      expect(read.newestMessagePrefix?.digest).toBe(
        createHash('sha1').update(before).digest('base64'),
      );
    }
    return read.outcome;
  } catch (error) {
    if (error instanceof JsonSpanError) return 'throws';
    throw error;
  }
}

/** The request body: the breakpoint on the newest message, as Claude Code sends it. */
function body(api: WireApi, system: string, messages: readonly Json[], indent: number): string {
  if (api === 'openai-responses') {
    return JSON.stringify({ model: 'm', instructions: system, input: messages }, null, indent);
  }
  if (api === 'openai-chat') {
    const all = [{ role: 'system', content: system }, ...messages];
    return JSON.stringify({ model: 'm', messages: all, stream: true }, null, indent);
  }
  const last = messages.at(-1);
  const content = last?.content;
  const marked =
    last !== undefined && Array.isArray(content)
      ? [
          ...messages.slice(0, -1),
          {
            ...last,
            content: content.map((block: Json, i) =>
              i === content.length - 1 ? { ...block, cache_control: { type: 'ephemeral' } } : block,
            ),
          },
        ]
      : messages;
  return JSON.stringify({ model: 'm', system, messages: marked, max_tokens: 9 }, null, indent);
}

/** Replaces a tool result's text in place (a client that rewrote an earlier message). */
function editResult(message: Json | undefined, text: string): void {
  if (message === undefined) return;
  if ('output' in message) message.output = text;
  else if (Array.isArray(message.content)) {
    message.content = [{ ...(message.content[0] as Json), content: text }];
  } else message.content = text;
}

const CASES: [WireApi, fc.Arbitrary<Json[]>][] = [
  ['anthropic', anthropicTurn],
  ['openai-chat', chatTurn],
  ['openai-responses', responsesTurn],
];

type Pool = readonly (readonly Json[])[];
type Step = typeof STEP extends fc.Arbitrary<infer T> ? T : never;

/** Drives the cache through the client's steps; every read must equal a full read. */
function runSequence(
  api: WireApi,
  input: {
    pool: Pool;
    steps: readonly Step[];
    indent: number;
    byBody: boolean;
    /** The first message's text (ASCII or not: a non-ASCII prefix before every resume point). */
    prompt: string;
  },
): void {
  const cache = new RequestReadCache({ maxEntries: 3 });
  const text = input.prompt;
  const first: Json =
    api === 'openai-responses'
      ? { type: 'message', role: 'user', content: [{ type: 'input_text', text }] }
      : { role: 'user', content: [{ type: 'text', text }] };
  const turns = input.pool.map((messages) => messages.map((message) => ({ ...message })));
  let shown = 1;
  let system = 'sys';
  let previous: { read: unknown; copy: unknown } | undefined;
  for (const step of input.steps) {
    let suffix = '';
    if (step.kind === 'append') shown = Math.min(turns.length, shown + step.turns);
    if (step.kind === 'rewind') shown = Math.max(1, shown - step.turns);
    if (step.kind === 'edit') editResult(turns[step.at % shown]?.[1], step.text);
    if (step.kind === 'other-conversation') system = system === 'sys' ? 'othér' : 'sys';
    if (step.kind === 'broken') suffix = ',';
    const text = body(api, system, [first, ...turns.slice(0, shown).flat()], input.indent) + suffix;
    const read = cachedRead(cache, api, text, input.byBody);
    expect(read).toEqual(fullRead(api, text));
    // A request that only adds to the previous one resumes, whatever became of that one's body.
    const added = step.kind === 'append' && step.turns > 0;
    if (added && previous !== undefined && previous.read !== 'throws' && read !== 'throws') {
      expect(cache.lastPath).toBe('resumed');
    }
    // What an earlier read returned is never changed by a later one.
    if (previous !== undefined) expect(previous.read).toEqual(previous.copy);
    previous = { read, copy: structuredClone(read) };
  }
}

const STEPS = fc.array(STEP, { minLength: 1, maxLength: 12 });
const INDENT = fc.constantFrom(0, 1);
const PROMPT = fc.constantFrom('go', 'go — │ü😀');

describe('RequestReadCache', () => {
  for (const [api, turn] of CASES) {
    const POOL = fc.array(turn, { minLength: 1, maxLength: 12 });
    test.prop([POOL, STEPS, INDENT, PROMPT], { numRuns: 60 })(
      `#24.4 ${api}: on random append/rewind/edit sequences the cached read equals a full read, and its newest-message prefix digest the prefix's sha1`,
      (pool, steps, indent, prompt) =>
        runSequence(api, { pool, steps, indent, byBody: false, prompt }),
    );
    test.prop([POOL, STEPS, INDENT, PROMPT], { numRuns: 60 })(
      `#24.4 ${api}: given only the body, only the new bytes are decoded and parsed (multi-byte characters in the prefix and the new part): the read, its pieces' slices and byte anchors equal a full read's, and the 1-hour verdict (kept prefix's + the new text's) a full scan`,
      (pool, steps, indent, prompt) =>
        runSequence(api, { pool, steps, indent, byBody: true, prompt }),
    );
  }
});
