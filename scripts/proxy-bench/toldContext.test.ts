import { describe, expect, it } from 'vitest';
import { toldContext } from './toldContext.js';

describe('toldContext: what the bench client goes by (#34.1)', () => {
  it('#34.1 the prompt and output a streamed reply told, cache reads included; none when it told none', () => {
    const start = {
      type: 'message_start',
      message: { usage: { input_tokens: 5, cache_read_input_tokens: 169_000, output_tokens: 1 } },
    };
    const delta = { type: 'message_delta', usage: { output_tokens: 40 } };
    const chunks = [
      `event: message_start\ndata: ${JSON.stringify(start)}\n\n`,
      `data: ${JSON.stringify(delta)}\n\n`,
    ];
    expect(toldContext(chunks)).toBe(169_045);
    expect(toldContext(['data: {"type":"ping"}\n\n'])).toBeUndefined();
  });
});
