import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HeadTailBuffer } from './HeadTailBuffer.js';

describe('HeadTailBuffer', () => {
  it('keeps everything within the budget', () => {
    const buffer = new HeadTailBuffer(100);
    buffer.push(Buffer.from('hello '));
    buffer.push(Buffer.from('world'));
    expect(buffer.result()).toEqual({ text: 'hello world', totalBytes: 11, omittedBytes: 0 });
  });

  it('keeps the first and last half of the budget and marks what was dropped', () => {
    const buffer = new HeadTailBuffer(10);
    buffer.push(Buffer.from('0123456789'));
    buffer.push(Buffer.from('abcdefghij'));
    const result = buffer.result();
    expect(result.totalBytes).toBe(20);
    expect(result.omittedBytes).toBe(10);
    expect(result.text).toBe('01234\n[… 10 bytes omitted …]\nfghij');
  });

  it('for any chunking, keeps exactly the head and tail of the concatenation', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.uint8Array({ minLength: 0, maxLength: 40 }).map((b) => b.map((x) => 97 + (x % 26))),
          { maxLength: 20 },
        ),
        fc.integer({ min: 2, max: 64 }),
        (chunks, max) => {
          const buffer = new HeadTailBuffer(max);
          for (const chunk of chunks) buffer.push(chunk);
          const all = Buffer.concat(chunks).toString('latin1');
          const result = buffer.result();
          expect(result.totalBytes).toBe(all.length);
          if (all.length <= max) {
            expect(result).toEqual({ text: all, totalBytes: all.length, omittedBytes: 0 });
          } else {
            const head = all.slice(0, Math.ceil(max / 2));
            const tail = all.slice(all.length - Math.floor(max / 2));
            expect(result.omittedBytes).toBe(all.length - head.length - tail.length);
            expect(result.text).toBe(
              `${head}\n[… ${result.omittedBytes} bytes omitted …]\n${tail}`,
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
