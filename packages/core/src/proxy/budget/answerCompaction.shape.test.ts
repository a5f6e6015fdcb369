import { describe, expect, it } from 'vitest';
import { codexClientMetadata, codexCompactionRequestBody } from '../test-utils/codexSession.js';
import {
  compactionPrompt,
  compactionRequestBody,
  longSessionMessages,
} from '../test-utils/longSession.js';
import { qwenCompactionRequestBody } from '../test-utils/qwenSession.js';
import { anthropicBody } from '../test-utils/wireRequests.js';
import { answerCompaction } from './answerCompaction.js';
import {
  CODEX_COMPACTION_MARKER,
  QWEN_COMPACTION_DIRECTIVE,
  QWEN_COMPACTION_PROMPT,
} from './clientCompactionRequests.js';

type Json = Record<string, unknown>;

const answered = (api: Parameters<typeof answerCompaction>[0], body: string): boolean =>
  answerCompaction(api, Buffer.from(body)) !== undefined;

const breakpoint = { cache_control: { type: 'ephemeral' } };

/** The session, then an ordinary user turn of `blocks` as Claude Code sends one (last block marked). */
function claudeTurn(blocks: readonly Json[]): string {
  const messages = longSessionMessages(6, 2_000);
  messages.push({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] });
  const marked = blocks.map((block, i) =>
    i === blocks.length - 1 ? { ...block, ...breakpoint } : block,
  );
  messages.push({ role: 'user', content: marked });
  return anthropicBody(messages, { model: 'claude-sonnet-4-6', stream: true });
}

const text = (value: string): Json => ({ type: 'text', text: value });

describe("#34.5 only a request shaped like the client's real compaction request is answered", () => {
  it("#34.5 Claude Code's real shape is answered: the prompt as the last, unmarked block of the last user message", () => {
    expect(answered('anthropic', compactionRequestBody())).toBe(true);
    // After an assistant reply the prompt is a user message of its own.
    const messages = longSessionMessages(6, 2_000);
    messages.push({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] });
    messages.push({ role: 'user', content: [text(compactionPrompt())] });
    expect(answered('anthropic', anthropicBody(messages, { stream: true }))).toBe(true);
  });

  it('#34.5 a user who pastes the whole prompt as an ordinary turn goes to the model', () => {
    expect(answered('anthropic', claudeTurn([text(compactionPrompt())]))).toBe(false);
  });

  it('#34.5 the pasted prompt with other text before it, or another block after it, goes to the model', () => {
    expect(
      answered('anthropic', claudeTurn([text(`What is this?\n\n${compactionPrompt()}`)])),
    ).toBe(false);
    const after = longSessionMessages(6, 2_000);
    after.push({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] });
    after.push({
      role: 'user',
      content: [text(compactionPrompt()), text('<system-reminder>a note</system-reminder>')],
    });
    expect(answered('anthropic', anthropicBody(after, { stream: true }))).toBe(false);
  });

  it('#34.5 `/compact <instructions>`: the request with the typed instructions is forwarded', () => {
    expect(answered('anthropic', compactionRequestBody(true, 'Keep every test name.'))).toBe(false);
    expect(answered('anthropic', compactionRequestBody(true))).toBe(true);
  });

  it('#34.5 Codex: only a request its turn metadata names a compaction is answered', () => {
    expect(answered('openai-responses', codexCompactionRequestBody())).toBe(true);
    const body = JSON.parse(codexCompactionRequestBody()) as Json;
    const ordinary = { ...body, client_metadata: codexClientMetadata('turn') };
    expect(answered('openai-responses', JSON.stringify(ordinary))).toBe(false);
    const { client_metadata: _, ...bare } = body;
    expect(answered('openai-responses', JSON.stringify(bare))).toBe(false);
    const input = body.input as Json[];
    expect((input.at(-1)?.content as Json[])[0]?.text).toMatch(
      new RegExp(`^${CODEX_COMPACTION_MARKER}`),
    );
  });

  it("#34.5 Qwen Code: the dedicated form's last message is the directive alone; the shared form's one text is the prompt", () => {
    expect(answered('openai-chat', qwenCompactionRequestBody({ form: 'dedicated' }))).toBe(true);
    expect(answered('openai-chat', qwenCompactionRequestBody())).toBe(true);
    const dedicated = JSON.parse(qwenCompactionRequestBody({ form: 'dedicated' })) as {
      messages: Json[];
    } & Json;
    const asked = `Why does the summary end with this? ${QWEN_COMPACTION_DIRECTIVE}`;
    dedicated.messages[dedicated.messages.length - 1] = { role: 'user', content: asked };
    expect(answered('openai-chat', JSON.stringify(dedicated))).toBe(false);
    const shared = JSON.parse(qwenCompactionRequestBody()) as { messages: Json[] } & Json;
    shared.messages[shared.messages.length - 1] = {
      role: 'user',
      content: [
        { type: 'text', text: 'Look at this prompt:' },
        { type: 'text', text: `${QWEN_COMPACTION_PROMPT} … ${QWEN_COMPACTION_DIRECTIVE}` },
      ],
    };
    expect(answered('openai-chat', JSON.stringify(shared))).toBe(false);
  });
});
