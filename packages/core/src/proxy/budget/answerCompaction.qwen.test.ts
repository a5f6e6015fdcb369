import { fc } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { parseJsonSpans } from '../wire/jsonSpans.js';
import { CODEX_TASK, chatSessionBody } from '../test-utils/codexSession.js';
import {
  chatRequestAskingForSummary,
  qwenCompactionRequestBody,
} from '../test-utils/qwenSession.js';
import { answerCompaction } from './answerCompaction.js';
import {
  CLIENT_COMPACTIONS,
  QWEN_COMPACTION_DIRECTIVE,
  QWEN_COMPACTION_PROMPT,
} from './clientCompactionRequests.js';

type Json = Record<string, unknown>;

const qwenReply = (body: string) => answerCompaction('openai-chat', Buffer.from(body));
const isQwenRequest = (body: string) =>
  CLIENT_COMPACTIONS['openai-chat'].isRequest(parseJsonSpans(body));

/** The `data:` payloads of a Chat Completions stream, `[DONE]` as a string. */
function chunks(sse: string): (Json | string)[] {
  return sse
    .split('\n\n')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => chunk.replace(/^data: /, ''))
    .map((data) => (data === '[DONE]' ? data : (JSON.parse(data) as Json)));
}

describe("Qwen Code's compaction request", () => {
  it('#24.1 is recognized in both of its forms: appended to the main request, and as a dedicated summarizer request', () => {
    expect(isQwenRequest(qwenCompactionRequestBody())).toBe(true);
    expect(isQwenRequest(qwenCompactionRequestBody({ form: 'dedicated' }))).toBe(true);
    expect(qwenReply(qwenCompactionRequestBody())).toBeDefined();
    expect(qwenReply(qwenCompactionRequestBody({ form: 'dedicated' }))).toBeDefined();
  });

  it('#24.1 no false positive: an ordinary request that asks for a summary, quotes the directive or carries it in a tool result is forwarded', () => {
    const ordinary = [
      chatSessionBody(4, 2_000),
      chatRequestAskingForSummary('Give me a summary of the conversation so far, please.'),
      chatRequestAskingForSummary(`Write a <state_snapshot> summary. ${QWEN_COMPACTION_DIRECTIVE}`),
      chatRequestAskingForSummary(
        `${QWEN_COMPACTION_DIRECTIVE} That line is from Qwen Code; what does ${QWEN_COMPACTION_PROMPT.slice(0, 30)} mean?`,
      ),
    ];
    const inTool = JSON.parse(chatSessionBody(2, 500)) as { messages: Json[] } & Json;
    inTool.messages.push(
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c9', type: 'function', function: { name: 'read_file', arguments: '{}' } },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'c9',
        content: `${QWEN_COMPACTION_PROMPT}\n${QWEN_COMPACTION_DIRECTIVE}`,
      },
    );
    ordinary.push(JSON.stringify(inTool));
    for (const body of ordinary) {
      expect(isQwenRequest(body)).toBe(false);
      expect(qwenReply(body)).toBeUndefined();
    }
    // Only on the Chat Completions route.
    expect(answerCompaction('anthropic', Buffer.from(qwenCompactionRequestBody()))).toBeUndefined();
    expect(
      answerCompaction('openai-responses', Buffer.from(qwenCompactionRequestBody())),
    ).toBeUndefined();
  });

  it('#24.1 is answered with a well-formed Chat Completions stream: one text delta holding a non-empty <state_snapshot>, stop, usage, [DONE]', () => {
    const reply = qwenReply(qwenCompactionRequestBody());
    expect(reply?.contentType).toBe('text/event-stream');
    const list = chunks(reply?.body ?? '');
    expect(list.at(-1)).toBe('[DONE]');
    const [first, finish, usage] = list as Json[];
    expect(first?.object).toBe('chat.completion.chunk');
    const choice = (first?.choices as Json[])[0] as { delta: Json };
    expect(choice.delta.role).toBe('assistant');
    expect(choice.delta.tool_calls).toBeUndefined();
    const text = String(choice.delta.content);
    expect(text).toMatch(
      /^<analysis>\n[\s\S]+?\n<\/analysis>\n\n<state_snapshot>\n[\s\S]+\n<\/state_snapshot>$/,
    );
    expect(text).toContain(CODEX_TASK);
    expect(text).toContain('src/m0.ts');
    expect(text).not.toContain(QWEN_COMPACTION_DIRECTIVE);
    expect((finish?.choices as Json[])[0]?.finish_reason).toBe('stop');
    const reported = usage?.usage as { completion_tokens: number; prompt_tokens: number };
    expect(reported.completion_tokens).toBeGreaterThan(0);
    expect(reported.completion_tokens).toBeLessThan(20_000);
    const ids = [...text.matchAll(/recall (?:id )?(r[0-9a-f]{10})/g)].map((m) => m[1] ?? '');
    expect(ids.length).toBeGreaterThan(0);
    const kept = new Set(reply?.recalls.map((entry) => entry.id));
    for (const id of ids) expect(kept.has(id)).toBe(true);
  });

  it('#24.1 the summary covers every message after the system prompt (the task included), not the instruction', () => {
    // System, task, six rounds of call + result, the instruction.
    expect(qwenReply(qwenCompactionRequestBody())?.messages).toBe(13);
    expect(qwenReply(qwenCompactionRequestBody({ form: 'dedicated' }))?.messages).toBe(13);
  });

  it('#24.1 a request without streaming gets one chat.completion', () => {
    const reply = qwenReply(qwenCompactionRequestBody({ stream: false }));
    expect(reply?.contentType).toBe('application/json');
    const body = JSON.parse(reply?.body ?? '{}') as {
      object: string;
      choices: { message: { role: string; content: string }; finish_reason: string }[];
    };
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0]?.message.role).toBe('assistant');
    expect(body.choices[0]?.message.content).toContain('<state_snapshot>');
    expect(body.choices[0]?.finish_reason).toBe('stop');
  });

  it('#24.1 #34.5 property: a request is recognized exactly when its last message is a user message whose one text is the summarizer prompt ending with the directive, or the directive alone after the summarizer prompt as the system message', () => {
    const fragment = fc.oneof(
      fc.constantFrom(
        QWEN_COMPACTION_PROMPT,
        QWEN_COMPACTION_DIRECTIVE,
        'summary',
        'Summarize the conversation so far.',
        '<state_snapshot>',
        '\n',
      ),
      fc.string({ maxLength: 12 }),
    );
    const text = fc.array(fragment, { maxLength: 5 }).map((parts) => parts.join(''));
    const lastTexts = fc.oneof(
      text,
      text.map((middle) => `${QWEN_COMPACTION_PROMPT}${middle}${QWEN_COMPACTION_DIRECTIVE}`),
      text.map((middle) => `${middle}${QWEN_COMPACTION_DIRECTIVE}`),
      fc.constant(`${QWEN_COMPACTION_DIRECTIVE}\n`),
    );
    const systemTexts = fc.oneof(
      text,
      text.map((rest) => `${QWEN_COMPACTION_PROMPT}${rest}`),
    );
    const role = fc.constantFrom('user', 'tool', 'assistant');
    let recognized = 0;
    fc.assert(
      fc.property(systemTexts, lastTexts, role, (system, last, lastRole) => {
        const body = JSON.parse(chatSessionBody(1, 200)) as { messages: Json[] } & Json;
        body.messages[0] = { role: 'system', content: system };
        const message: Json =
          lastRole === 'tool'
            ? { role: 'tool', tool_call_id: 'call_read_0', content: last }
            : { role: lastRole, content: [{ type: 'text', text: last }] };
        const raw = JSON.stringify({ ...body, messages: [...body.messages, message] });
        const trimmed = last.trim();
        const expected =
          lastRole === 'user' &&
          trimmed.endsWith(QWEN_COMPACTION_DIRECTIVE) &&
          (trimmed.startsWith(QWEN_COMPACTION_PROMPT) ||
            (trimmed === QWEN_COMPACTION_DIRECTIVE &&
              system.trimStart().startsWith(QWEN_COMPACTION_PROMPT)));
        expect(isQwenRequest(raw)).toBe(expected);
        expect(qwenReply(raw) !== undefined).toBe(expected);
        if (expected) recognized++;
      }),
      { numRuns: 300 },
    );
    expect(recognized).toBeGreaterThan(20);
  });
});
