import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReportedUsageStream, raisedUsageJson } from './reportedUsage.js';

const floor = (target: number) => (prompt: number) => (prompt < target ? target : undefined);

function through(stream: ReportedUsageStream, chunks: readonly string[]): string {
  const out = chunks.map((chunk) => stream.push(Buffer.from(chunk)).toString());
  return out.join('') + stream.end().toString();
}

const anthropicStream = (end: string) =>
  [
    'event: message_start',
    `data: {"type":"message_start","message":{"id":"m1","usage":{"input_tokens":12,"cache_creation_input_tokens":300,"cache_read_input_tokens":5000,"output_tokens":1}}}`,
    '',
    'event: content_block_delta',
    'data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"the usage is fine"}}',
    '',
    'event: message_delta',
    'data: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":40}}',
    '',
    '',
  ].join(end);

describe('reportedUsage: the usage the client is told (#34.1)', () => {
  it('#34.1 an Anthropic message_start prompt is raised to the floor through cache reads; the output-only message_delta and other lines pass byte for byte', () => {
    const stream = new ReportedUsageStream(floor(170_000));
    const text = through(stream, [anthropicStream('\n')]);
    expect(stream.raised).toBe(true);
    const start = JSON.parse(text.split('\n')[1]?.slice('data: '.length) ?? '{}') as {
      message: { usage: Record<string, number> };
    };
    expect(start.message.usage).toEqual({
      input_tokens: 12,
      cache_creation_input_tokens: 300,
      cache_read_input_tokens: 170_000 - 312,
      output_tokens: 1,
    });
    const rest = (s: string) => s.split('\n').slice(2).join('\n');
    expect(rest(text)).toBe(rest(anthropicStream('\n')));
  });

  it('#34.1 nothing is raised when the reported prompt already reaches the floor, or the floor says no', () => {
    const stream = new ReportedUsageStream(floor(100));
    expect(through(stream, [anthropicStream('\r\n')])).toBe(anthropicStream('\r\n'));
    expect(stream.raised).toBe(false);
  });

  it('#34.1 a message_delta that carries the prompt again (newer API) is raised too', () => {
    const delta =
      '{"type":"message_delta","usage":{"input_tokens":10,"cache_read_input_tokens":90,"output_tokens":7}}';
    const raised = JSON.parse(raisedUsageJson(delta, floor(1_000)) ?? '{}') as {
      usage: Record<string, number>;
    };
    expect(raised.usage).toEqual({
      input_tokens: 10,
      cache_read_input_tokens: 990,
      output_tokens: 7,
    });
  });

  it('#34.1 OpenAI Responses and Chat Completions usage: the prompt, its cached part and the total rise together', () => {
    const responses =
      '{"type":"response.completed","response":{"usage":{"input_tokens":1000,"input_tokens_details":{"cached_tokens":800},"output_tokens":50,"total_tokens":1050}}}';
    const r = JSON.parse(raisedUsageJson(responses, floor(244_800)) ?? '{}') as {
      response: {
        usage: {
          input_tokens: number;
          total_tokens: number;
          input_tokens_details: { cached_tokens: number };
        };
      };
    };
    expect(r.response.usage.input_tokens).toBe(244_800);
    expect(r.response.usage.input_tokens_details.cached_tokens).toBe(244_600);
    expect(r.response.usage.total_tokens).toBe(244_850);
    const chat =
      '{"choices":[],"usage":{"prompt_tokens":2000,"completion_tokens":20,"total_tokens":2020}}';
    const c = JSON.parse(raisedUsageJson(chat, floor(167_000)) ?? '{}') as {
      usage: {
        prompt_tokens: number;
        total_tokens: number;
        prompt_tokens_details: { cached_tokens: number };
      };
    };
    expect(c.usage).toEqual({
      prompt_tokens: 167_000,
      completion_tokens: 20,
      total_tokens: 167_020,
      prompt_tokens_details: { cached_tokens: 165_000 },
    });
  });

  it('#34.1 a data line that is not JSON, or has no usage object, passes as it came', () => {
    expect(raisedUsageJson('{"usage": 3', floor(10))).toBeUndefined();
    expect(raisedUsageJson('{"text":"\\"usage\\""}', floor(10))).toBeUndefined();
    const stream = new ReportedUsageStream(floor(10));
    const odd = 'data: {"usage": broken\n\ndata: [DONE]\n\n';
    expect(through(stream, [odd])).toBe(odd);
  });

  it('#34.1 property: however the stream is cut into chunks and whichever line ends it uses, the client gets the same bytes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('\n', '\r\n', '\r'),
        fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 12 }),
        (end, cuts) => {
          const whole = anthropicStream(end);
          const expected = through(new ReportedUsageStream(floor(9_000)), [whole]);
          const points = [...new Set(cuts.map((cut) => cut % whole.length))].sort((a, b) => a - b);
          const chunks: string[] = [];
          let from = 0;
          for (const point of points) {
            chunks.push(whole.slice(from, point));
            from = point;
          }
          chunks.push(whole.slice(from));
          expect(through(new ReportedUsageStream(floor(9_000)), chunks)).toBe(expected);
          expect(expected).toContain('"cache_read_input_tokens":8688');
        },
      ),
    );
  });
});
