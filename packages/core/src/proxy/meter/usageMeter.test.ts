import { describe, expect, it } from 'vitest';
import { UsageMeter } from './usageMeter.js';

const START =
  '{"type":"message_start","message":{"usage":{"input_tokens":7,"cache_creation_input_tokens":20,"cache_read_input_tokens":300,"output_tokens":1}}}';
const DELTA = '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}';
const END = '{"type":"message_delta","usage":{"output_tokens":42}}';
const USAGE = { input: 7, cacheCreation: 20, cacheRead: 300, output: 42 };

/** An Anthropic stream whose lines end in `eol`, with `deltas` text events between start and end. */
function anthropicStream(eol: string, deltas = 3): string[] {
  const event = (name: string, data: string) => `event: ${name}${eol}data: ${data}${eol}${eol}`;
  return [
    event('message_start', START),
    ...Array.from({ length: deltas }, () => event('content_block_delta', DELTA)),
    event('message_delta', END),
    event('message_stop', '{"type":"message_stop"}'),
  ];
}

function meter(chunks: readonly string[]): UsageMeter {
  const usageMeter = new UsageMeter(true);
  for (const chunk of chunks) usageMeter.push(Buffer.from(chunk));
  return usageMeter;
}

describe('UsageMeter', () => {
  for (const [name, eol] of [
    ['\\n\\n', '\n'],
    ['\\r\\n\\r\\n', '\r\n'],
    ['\\r\\r', '\r'],
  ] as const) {
    it(`#34.4 an SSE stream framed by ${name} is metered with its usage`, () => {
      expect(meter(anthropicStream(eol)).finish()).toEqual(USAGE);
      // Cut at every third byte: events and line ends straddle chunks.
      const bytes = anthropicStream(eol).join('');
      const cut = Array.from({ length: Math.ceil(bytes.length / 3) }, (_, i) =>
        bytes.slice(i * 3, i * 3 + 3),
      );
      expect(meter(cut).finish()).toEqual(USAGE);
    });
  }

  it('#34.4 mixed line ends within one stream are metered', () => {
    const [start, delta, end, stop] = [
      ...anthropicStream('\r\n', 1).slice(0, 2),
      ...anthropicStream('\r', 1).slice(2),
    ];
    const mixed = [start, delta?.replace(/\r\n/g, '\n'), end, stop].map(String);
    expect(meter(mixed).finish()).toEqual(USAGE);
  });

  it('#34.4 a 12,000-event CRLF stream, one chunk per event, is metered in work linear in its bytes', () => {
    const chunks = anthropicStream('\r\n', 12_000);
    const usageMeter = meter(chunks);
    expect(usageMeter.finish()).toEqual(USAGE);
    const bytes = chunks.reduce((sum, chunk) => sum + Buffer.byteLength(chunk), 0);
    expect(usageMeter.workBytes).toBeGreaterThan(0);
    expect(usageMeter.workBytes).toBeLessThanOrEqual(3 * bytes);
  });
});
