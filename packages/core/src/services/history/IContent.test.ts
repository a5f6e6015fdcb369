import { describe, expect, it } from 'vitest';
import {
  createAiMessage,
  createToolCallMessage,
  createToolResponse,
  createUserMessage,
  getText,
  isEmptyAiEntry,
} from './IContent.js';

describe('IContent constructors', () => {
  it('build entries with the right speaker and blocks', () => {
    expect(createUserMessage('hi', { id: 'm1' })).toEqual({
      speaker: 'human',
      blocks: [{ type: 'text', text: 'hi' }],
      metadata: { id: 'm1' },
    });
    expect(
      createToolCallMessage({ id: 'c', name: 'glob', parameters: { pattern: '*' } }, 'look'),
    ).toEqual({
      speaker: 'ai',
      blocks: [
        { type: 'text', text: 'look' },
        { type: 'tool_call', id: 'c', name: 'glob', parameters: { pattern: '*' } },
      ],
    });
    expect(
      createToolResponse([{ callId: 'c', toolName: 'glob', result: 'x', error: 'e' }]),
    ).toEqual({
      speaker: 'tool',
      blocks: [{ type: 'tool_response', callId: 'c', toolName: 'glob', result: 'x', error: 'e' }],
    });
  });

  it('isEmptyAiEntry is true only for AI entries with nothing but blank text', () => {
    expect(isEmptyAiEntry(createAiMessage([]))).toBe(true);
    expect(isEmptyAiEntry(createAiMessage(' \n'))).toBe(true);
    expect(isEmptyAiEntry(createAiMessage('x'))).toBe(false);
    expect(isEmptyAiEntry(createUserMessage(''))).toBe(false);
    expect(isEmptyAiEntry(createToolCallMessage({ id: 'c', name: 'glob', parameters: {} }))).toBe(
      false,
    );
  });

  it('getText joins text blocks', () => {
    expect(
      getText(
        createAiMessage([
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ]),
      ),
    ).toBe('a\nb');
  });
});
