import { describe, expect, it } from 'vitest';
import { replyText } from './replyText.js';

const event = (data: object): string => `event: x\ndata: ${JSON.stringify(data)}\n\n`;

describe('bench:proxy: the text of a streamed reply', () => {
  it('#33.5 an Anthropic stream: its text deltas in order, split across chunks anywhere', () => {
    const stream = [
      event({ type: 'message_start', message: { content: [] } }),
      event({ type: 'content_block_delta', delta: { type: 'text_delta', text: 'Keep the ' } }),
      event({
        type: 'content_block_delta',
        delta: { type: 'input_json_delta', partial_json: '{' },
      }),
      event({ type: 'content_block_delta', delta: { type: 'text_delta', text: 'API stable.' } }),
      event({ type: 'message_stop' }),
    ].join('');
    const cut = Math.floor(stream.length / 2);
    expect(replyText([stream.slice(0, cut), stream.slice(cut)])).toBe('Keep the API stable.');
  });

  it('#33.5 a Responses stream: its output text deltas', () => {
    const stream = [
      event({ type: 'response.created', response: { output: [] } }),
      event({ type: 'response.output_text.delta', delta: 'Summary: ' }),
      event({ type: 'response.output_text.delta', delta: 'fix the totals.' }),
      event({ type: 'response.completed', response: { output: [] } }),
    ];
    expect(replyText(stream)).toBe('Summary: fix the totals.');
    expect(replyText(['data: [DONE]\n\n'])).toBe('');
  });
});
