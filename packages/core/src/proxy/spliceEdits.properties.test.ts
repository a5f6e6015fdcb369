import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { proxyPointer, type PointerSite } from './proxyPointer.js';
import { removedChars, spliceBytes, spliceEdits, splicedChunks } from './spliceEdits.js';

/** Text with multi-byte characters (and astral ones, two UTF-16 units each). */
const TEXT = fc.string({ maxLength: 200, unit: fc.constantFrom('a', '"', 'é', '€', '😀', '\n') });

const site = (text: string) =>
  fc
    .tuple(
      fc.nat(text.length),
      fc.nat(text.length),
      fc.constantFrom('r0000000001', 'r00000000ab'),
      fc.constantFrom(undefined, '{"type":"ephemeral"}'),
    )
    .map(([a, b, recallId, cacheControlRaw]): PointerSite => {
      // Sites sit between whole characters, as JSON value spans do.
      const at = (offset: number) =>
        /[\uDC00-\uDFFF]/.test(text.charAt(offset)) ? offset - 1 : offset;
      const [start, end] = [at(Math.min(a, b)), at(Math.max(a, b))];
      return {
        callId: 'c',
        messageIndex: 0,
        blockIndex: 0,
        start,
        end,
        recallId,
        pointer: proxyPointer(recallId),
        ...(cacheControlRaw === undefined ? {} : { cacheControlRaw }),
      };
    });

describe('spliceBytes', () => {
  test.prop([TEXT.chain((text) => fc.tuple(fc.constant(text), fc.array(site(text))))], {
    numRuns: 300,
  })(
    '#24.4 splicing the body bytes gives the bytes of the spliced text, overlapping sites skipped alike',
    ([text, sites]) => {
      const spliced = spliceEdits(text, sites);
      expect(spliceBytes(Buffer.from(text, 'utf8'), text, sites)).toEqual(
        Buffer.from(spliced.text, 'utf8'),
      );
      expect(removedChars(sites)).toBe(spliced.removedChars);
    },
  );

  test.prop([TEXT.chain((text) => fc.tuple(fc.constant(text), fc.array(site(text))))], {
    numRuns: 300,
  })(
    "#24.4 the spliced chunks, sent one after the other, are the spliced text's bytes, and the unchanged parts are views of the body, not copies",
    ([text, sites]) => {
      const body = Buffer.from(text, 'utf8');
      const chunks = splicedChunks(body, text, sites);
      expect(Buffer.concat(chunks)).toEqual(Buffer.from(spliceEdits(text, sites).text, 'utf8'));
      // Even chunks lie between the pointers: the body's own memory.
      for (const [index, chunk] of chunks.entries()) {
        if (index % 2 === 0) expect(chunk.buffer).toBe(body.buffer);
      }
    },
  );

  test.prop(
    [
      TEXT.chain((text) =>
        fc.tuple(fc.constant(text), fc.array(site(text)), fc.uniqueArray(fc.nat(text.length))),
      ),
    ],
    { numRuns: 300 },
  )(
    '#24.4 counting bytes from known character/byte anchors gives the same chunks as counting from the start',
    ([text, sites, offsets]) => {
      const body = Buffer.from(text, 'utf8');
      const chars = offsets
        .map((offset) => (/[\uDC00-\uDFFF]/.test(text.charAt(offset)) ? offset - 1 : offset))
        .filter((offset, index, all) => all.indexOf(offset) === index)
        .sort((a, b) => a - b);
      const bytes = chars.map((offset) => Buffer.byteLength(text.slice(0, offset)));
      expect(Buffer.concat(splicedChunks(body, text, sites, { chars, bytes }))).toEqual(
        Buffer.concat(splicedChunks(body, text, sites)),
      );
    },
  );
});
