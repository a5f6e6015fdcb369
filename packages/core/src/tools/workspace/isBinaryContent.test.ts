import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BINARY_SNIFF_BYTES, isBinaryContent } from './isBinaryContent.js';

describe('isBinaryContent', () => {
  it('says text is not binary, including empty and non-ASCII UTF-8', () => {
    expect(isBinaryContent(new Uint8Array())).toBe(false);
    expect(isBinaryContent(Buffer.from('héllo wörld ✓\n', 'utf8'))).toBe(false);
  });

  it('says a NUL byte within the first 8 KB makes a file binary', () => {
    const bytes = Buffer.alloc(BINARY_SNIFF_BYTES, 0x61);
    bytes[BINARY_SNIFF_BYTES - 1] = 0;
    expect(isBinaryContent(bytes)).toBe(true);
  });

  it('ignores a NUL byte after the first 8 KB', () => {
    const bytes = Buffer.alloc(BINARY_SNIFF_BYTES + 10, 0x61);
    bytes[BINARY_SNIFF_BYTES] = 0;
    expect(isBinaryContent(bytes)).toBe(false);
  });

  it('agrees with "is there a 0 among the first 8 KB" for any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        expect(isBinaryContent(bytes)).toBe(bytes.includes(0));
      }),
      { numRuns: 200 },
    );
  });
});
