import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { textBlock, toolCallBlock, type IContent } from './IContent.js';
import { contentTokenText, countO200kTokens, MAX_RUN_CHARS } from './TokenCounter.js';

describe('countO200kTokens', () => {
  it('matches the o200k tokenizer on ordinary text', () => {
    const text = 'export function add(a: number, b: number) {\n  return a + b;\n}\n';
    expect(countO200kTokens(text)).toBe(countTokens(text));
  });

  it('does not throw on text that contains special-token strings', () => {
    expect(countO200kTokens('before <|endoftext|> after')).toBeGreaterThan(3);
  });

  it('counts a long whitespace-free run in chunks, within a token per chunk of the exact count', () => {
    const run = 'ab3'.repeat(2 * MAX_RUN_CHARS);
    const chunks = Math.ceil(run.length / MAX_RUN_CHARS);
    const exact = countTokens(run);
    expect(Math.abs(countO200kTokens(run) - exact)).toBeLessThanOrEqual(chunks);
  });

  it('splits only runs longer than the limit (ordinary long text is counted exactly)', () => {
    const words = Array.from({ length: 3000 }, (_, i) => `word${i}`).join(' ');
    expect(countO200kTokens(words)).toBe(countTokens(words));
  });

  it('counts empty text as zero', () => {
    expect(countO200kTokens('')).toBe(0);
  });
});

describe('contentTokenText', () => {
  it('includes text, tool-call name and parameters, results, errors, thinking, code and captions, never metadata', () => {
    const entry: IContent = {
      speaker: 'ai',
      blocks: [
        textBlock('hello'),
        toolCallBlock('c1', 'read_file', { file_path: 'a.ts' }),
        {
          type: 'tool_response',
          callId: 'c1',
          toolName: 'read_file',
          result: { lines: 3 },
          error: 'oops',
        },
        { type: 'thinking', thought: 'hmm' },
        { type: 'code', code: 'x = 1' },
        {
          type: 'media',
          mimeType: 'image/png',
          data: 'AAAA',
          encoding: 'base64',
          caption: 'a chart',
        },
      ],
      metadata: { model: 'secret-model-name' },
    };
    const text = contentTokenText(entry);
    for (const part of [
      'hello',
      'read_file {"file_path":"a.ts"}',
      '{"lines":3}',
      'oops',
      'hmm',
      'x = 1',
      'a chart',
    ]) {
      expect(text).toContain(part);
    }
    expect(text).not.toContain('secret-model-name');
    expect(text).not.toContain('AAAA');
  });
});
