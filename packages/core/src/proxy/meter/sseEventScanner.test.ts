import { describe, expect, it } from 'vitest';
import { SseEventScanner } from './sseEventScanner.js';

/** Feeds `chunks` and returns every event's data, and the scanner for its work counter. */
function scan(chunks: readonly (string | Buffer)[], maxEventBytes?: number) {
  const events: string[] = [];
  const scanner = new SseEventScanner({
    onData: (data) => events.push(data),
    ...(maxEventBytes === undefined ? {} : { maxEventBytes }),
  });
  for (const chunk of chunks) scanner.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  scanner.end();
  return { events, scanner };
}

/** The same bytes cut into pieces of `size`. */
function pieces(text: string, size: number): Buffer[] {
  const bytes = Buffer.from(text);
  const out: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) out.push(bytes.subarray(at, at + size));
  return out;
}

const FRAMINGS = { lf: '\n', crlf: '\r\n', cr: '\r' } as const;

function stream(eol: string): string {
  return [
    `event: message_start${eol}data: {"a":1}${eol}${eol}`,
    `: keep-alive comment${eol}${eol}`,
    `id: 7${eol}data: first line${eol}data:second line${eol}retry: 10${eol}${eol}`,
    `data${eol}${eol}`,
    `event: done${eol}data: {"z":"é€😀"}${eol}${eol}`,
  ].join('');
}

const EXPECTED = ['{"a":1}', 'first line\nsecond line', '', '{"z":"é€😀"}'];

describe('SseEventScanner', () => {
  for (const [name, eol] of Object.entries(FRAMINGS)) {
    it(`#34.4 events framed by ${name} line ends, whole or cut at every size, give the same data`, () => {
      const text = stream(eol);
      expect(scan([text]).events).toEqual(EXPECTED);
      for (const size of [1, 2, 3, 5, 7, 64])
        expect(scan(pieces(text, size)).events).toEqual(EXPECTED);
    });
  }

  it('#34.4 line ends mixed within one stream (CRLF, LF, CR), a CRLF straddling two chunks', () => {
    const text = 'data: one\r\n\ndata: two\r\rdata: three\n\r\ndata: four\r\n\r\n';
    const expected = ['one', 'two', 'three', 'four'];
    expect(scan([text]).events).toEqual(expected);
    expect(scan(['data: one\r', '\n\r', '\ndata: two\r', '\r']).events).toEqual(['one', 'two']);
  });

  it('#34.4 a CR then an LF in the next chunk is one line end, not a blank line', () => {
    expect(scan(['data: a\r', '\ndata: b\r\n\r\n']).events).toEqual(['a\nb']);
  });

  it('#34.4 a leading BOM is dropped; a last event without its blank line still counts', () => {
    expect(scan(['\uFEFFdata: x\n\ndata: tail']).events).toEqual(['x', 'tail']);
  });

  it('#34.4 an event past maxEventBytes is skipped whole; the next one is read', () => {
    const big = `data: ${'x'.repeat(200)}\r\n\r\n`;
    expect(scan([...pieces(big, 16), 'data: small\r\n\r\n'], 100).events).toEqual(['small']);
    const lines = `data: ${'y'.repeat(60)}\ndata: ${'y'.repeat(60)}\n\n`;
    expect(scan([lines, 'data: next\n\n'], 100).events).toEqual(['next']);
  });

  it('#34.4 12,000 CRLF-framed events, one chunk each: work linear in the bytes (each searched once)', () => {
    const event =
      'event: content_block_delta\r\ndata: {"type":"content_block_delta","delta":{"text":"ab"}}\r\n\r\n';
    const chunks = Array.from({ length: 12_000 }, () => event);
    const { events, scanner } = scan(chunks);
    expect(events).toHaveLength(12_000);
    const bytes = Buffer.byteLength(event) * 12_000;
    // Two line-end searches over each byte at most, plus the data decoded once.
    expect(scanner.examinedBytes).toBeLessThanOrEqual(3 * bytes);
  });

  it('#34.4 one chunk of 12,000 LF-framed events ending in CR-framed ones: still linear (no search per line to the far CR)', () => {
    const text = `${'data: {"i":1}\n\n'.repeat(12_000)}data: end\r\r`;
    const { events, scanner } = scan([text]);
    expect(events).toHaveLength(12_001);
    expect(events.at(-1)).toBe('end');
    expect(scanner.examinedBytes).toBeLessThanOrEqual(3 * text.length);
  });

  it('#34.4 one long line cut into 4-byte chunks: each piece searched once', () => {
    const text = `data: ${'q'.repeat(50_000)}\r\rdata: end\n\n`;
    const { events, scanner } = scan(pieces(text, 4));
    expect(events).toEqual(['q'.repeat(50_000), 'end']);
    expect(scanner.examinedBytes).toBeLessThanOrEqual(3 * text.length);
  });
});
