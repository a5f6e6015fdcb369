import { describe, expect, it } from 'vitest';
import { createAiMessage } from '../services/history/IContent.js';
import { ai, human, toolCall, toolResult } from '../test-utils/historyBuilders.js';
import { toGeminiContents, toGeminiTools } from './geminiConversion.js';
import { LEADING_USER_TURN_TEXT } from './toolPayloads.js';

describe('toGeminiContents', () => {
  it('maps calls to functionCall parts and responses to functionResponse parts with the name', () => {
    const contents = toGeminiContents([
      human('read a and b'),
      toolCall([
        { id: 'g1', name: 'read_file', parameters: { file_path: 'a' } },
        { id: 'g2', name: 'read_file', parameters: { file_path: 'b' } },
      ]),
      toolResult([
        { id: 'g1', name: 'read_file', result: 'A' },
        { id: 'g2', name: 'read_file', error: 'ENOENT' },
      ]),
      ai('done'),
    ]);
    expect(contents).toEqual([
      { role: 'user', parts: [{ text: 'read a and b' }] },
      {
        role: 'model',
        parts: [
          { functionCall: { id: 'g1', name: 'read_file', args: { file_path: 'a' } } },
          { functionCall: { id: 'g2', name: 'read_file', args: { file_path: 'b' } } },
        ],
      },
      {
        role: 'user',
        parts: [
          { functionResponse: { id: 'g1', name: 'read_file', response: { output: 'A' } } },
          {
            functionResponse: {
              id: 'g2',
              name: 'read_file',
              response: { error: 'ENOENT', output: '' },
            },
          },
        ],
      },
      { role: 'model', parts: [{ text: 'done' }] },
    ]);
  });

  it('JSON-encodes non-string results', () => {
    const contents = toGeminiContents([
      human('q'),
      toolCall({ id: 'g1', name: 'ls' }),
      toolResult({ id: 'g1', name: 'ls', result: { files: 2 } }),
    ]);
    expect(contents[2]?.parts?.[0]?.functionResponse?.response).toEqual({ output: '{"files":2}' });
  });

  it('puts a user turn first when the history starts with the model (after truncation)', () => {
    const contents = toGeminiContents([ai('earlier answer'), human('next question')]);
    expect(contents.map((c) => c.role)).toEqual(['user', 'model', 'user']);
    expect(contents[0]?.parts).toEqual([{ text: LEADING_USER_TURN_TEXT }]);
  });

  it('carries a thought signature on the part after the thinking, and drops thought text', () => {
    const contents = toGeminiContents([
      human('q'),
      createAiMessage([
        { type: 'thinking', thought: 'plan', signature: 'sig-1' },
        { type: 'tool_call', id: 'g1', name: 'ls', parameters: {} },
      ]),
      toolResult({ id: 'g1', name: 'ls', result: 'x' }),
    ]);
    expect(contents[1]?.parts).toEqual([
      { functionCall: { id: 'g1', name: 'ls', args: {} }, thoughtSignature: 'sig-1' },
    ]);
  });

  it('merges consecutive same-role turns', () => {
    expect(toGeminiContents([human('a'), human('b')])).toEqual([
      { role: 'user', parts: [{ text: 'a' }, { text: 'b' }] },
    ]);
  });

  it('sends media inline (base64) or by URI', () => {
    const contents = toGeminiContents([
      {
        speaker: 'human',
        blocks: [
          { type: 'media', mimeType: 'image/png', data: 'AAAA', encoding: 'base64' },
          { type: 'media', mimeType: 'application/pdf', data: 'gs://b/f.pdf', encoding: 'url' },
        ],
      },
    ]);
    expect(contents[0]?.parts).toEqual([
      { inlineData: { mimeType: 'image/png', data: 'AAAA' } },
      { fileData: { mimeType: 'application/pdf', fileUri: 'gs://b/f.pdf' } },
    ]);
  });
});

describe('toGeminiTools', () => {
  it('declares functions with their JSON schema, or nothing when there are no tools', () => {
    const parameters = { type: 'object', properties: {} };
    expect(toGeminiTools([{ name: 'ls', description: 'List', parameters }])).toEqual([
      {
        functionDeclarations: [
          { name: 'ls', description: 'List', parametersJsonSchema: parameters },
        ],
      },
    ]);
    expect(toGeminiTools([])).toEqual([]);
  });
});
