import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { ConversationStore } from '../decide/conversationStore.js';
import { densifyRequest } from './densifyRequest.js';
import { parseJsonSpans, JsonSpanError, type JsonNode } from '../wire/jsonSpans.js';
import type { WireApi } from '../wire/wireHistory.js';

/** Tools that never write a file: with them nothing is ever stale. */
const TOOL = fc.constantFrom('Read', 'Grep', 'Glob', 'WebFetch', 'lookup', 'shell');
const TEXT = fc.string({ maxLength: 40, unit: 'binary' });
const INDENT = fc.constantFrom(undefined, 0, 1, 2, '\t');
const EXTRA = fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 2 }), {
  maxKeys: 3,
});

const anthropicTurn = fc
  .tuple(fc.integer({ min: 0, max: 1_000_000 }), TOOL, TEXT, TEXT, fc.boolean())
  .map(([n, name, text, out, error]) => [
    {
      role: 'assistant',
      content: [
        { type: 'text', text },
        {
          type: 'tool_use',
          id: `t${n}`,
          name,
          input: { file_path: `/f${n}`, command: `cat /f${n}` },
        },
      ],
    },
    {
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: `t${n}`,
          content: out,
          ...(error ? { is_error: true } : {}),
        },
      ],
    },
  ]);

const chatTurn = fc
  .tuple(fc.integer({ min: 0, max: 1_000_000 }), TOOL, TEXT, TEXT)
  .map(([n, name, text, out]) => [
    {
      role: 'assistant',
      content: text,
      tool_calls: [
        {
          id: `c${n}`,
          type: 'function',
          function: { name, arguments: JSON.stringify({ command: `cat /f${n}` }) },
        },
      ],
    },
    { role: 'tool', tool_call_id: `c${n}`, content: out },
  ]);

const responsesTurn = fc
  .tuple(fc.integer({ min: 0, max: 1_000_000 }), TOOL, TEXT, TEXT)
  .map(([n, name, text, out]) => [
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] },
    {
      type: 'function_call',
      call_id: `c${n}`,
      name,
      arguments: JSON.stringify({ command: ['cat', `/f${n}`] }),
    },
    { type: 'function_call_output', call_id: `c${n}`, output: out },
  ]);

function body(
  api: WireApi,
  turns: unknown[][],
  extra: object,
  indent: string | number | undefined,
) {
  const list = [{ role: 'user', content: 'hi' }, ...turns.flat()];
  const request =
    api === 'openai-responses'
      ? { ...extra, model: 'm', input: list }
      : { ...extra, model: 'm', messages: list, max_tokens: 5 };
  return JSON.stringify(request, null, indent);
}

function check(api: WireApi, text: string): void {
  const input = Buffer.from(text);
  const result = densifyRequest({
    api,
    body: input,
    sessionId: undefined,
    store: new ConversationStore(),
    now: 0,
    pressureTokens: 0,
  });
  expect(result.body.equals(input)).toBe(true);
}

describe('densifyRequest pass-through exactness', () => {
  test.prop([fc.array(anthropicTurn, { maxLength: 6 }), EXTRA, INDENT], { numRuns: 100 })(
    '#15.6 Anthropic: a request with nothing to prune is forwarded byte-identical',
    (turns, extra, indent) => check('anthropic', body('anthropic', turns, extra, indent)),
  );
  test.prop([fc.array(chatTurn, { maxLength: 6 }), EXTRA, INDENT], { numRuns: 100 })(
    '#15.6 OpenAI Chat: a request with nothing to prune is forwarded byte-identical',
    (turns, extra, indent) => check('openai-chat', body('openai-chat', turns, extra, indent)),
  );
  test.prop([fc.array(responsesTurn, { maxLength: 6 }), EXTRA, INDENT], { numRuns: 100 })(
    '#15.6 OpenAI Responses: a request with nothing to prune is forwarded byte-identical',
    (turns, extra, indent) =>
      check('openai-responses', body('openai-responses', turns, extra, indent)),
  );
});

function everyNode(node: JsonNode, visit: (node: JsonNode) => void): void {
  visit(node);
  if (node.kind === 'object') for (const child of node.values) everyNode(child, visit);
  if (node.kind === 'array') for (const child of node.items) everyNode(child, visit);
}

describe('parseJsonSpans', () => {
  test.prop([fc.jsonValue(), INDENT], { numRuns: 200 })(
    '#15.2 every value span parses to the value found there (splices hit exact bytes)',
    (value, indent) => {
      const text = ` ${JSON.stringify(value, null, indent)}\n`;
      const root = parseJsonSpans(text);
      expect(JSON.parse(text.slice(root.start, root.end))).toEqual(JSON.parse(text));
      everyNode(root, (node) => {
        const parsed: unknown = JSON.parse(text.slice(node.start, node.end));
        if (node.kind === 'string') expect(parsed).toBe(node.value);
      });
    },
  );

  test.prop([fc.string({ maxLength: 30 })], { numRuns: 200 })(
    '#15.4 agrees with JSON.parse on what is valid JSON',
    (text) => {
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      // Duplicate keys are valid for JSON.parse but refused here (which value counts is ambiguous).
      if (valid) expect(() => parseJsonSpans(text)).not.toThrow(/^(?!.*duplicate key)/);
      else expect(() => parseJsonSpans(text)).toThrow(JsonSpanError);
    },
  );
});
