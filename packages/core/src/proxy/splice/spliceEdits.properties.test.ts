import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { proxyPointer } from '../decide/proxyPointer.js';
import { reusedSplice } from './reusedSplice.js';
import {
  mergedByStart,
  orderedSites,
  spliceEdits,
  VIEW_BYTES,
  type PointerSite,
} from './spliceEdits.js';
import type { ByteAnchors } from '../wire/byteAnchors.js';

/** The body's splice from scratch (no previous request to resume from). */
const splice = (body: Buffer, text: string, sites: readonly PointerSite[], anchors?: ByteAnchors) =>
  reusedSplice(body, text, sites, anchors === undefined ? {} : { anchors });

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

describe('splicing the body bytes', () => {
  test.prop([TEXT.chain((text) => fc.tuple(fc.constant(text), fc.array(site(text))))], {
    numRuns: 300,
  })(
    '#24.4 splicing the body bytes gives the bytes of the spliced text, overlapping sites skipped alike',
    ([text, sites]) => {
      const spliced = spliceEdits(text, sites);
      const bytes = splice(Buffer.from(text, 'utf8'), text, sites);
      expect(Buffer.concat(bytes.chunks)).toEqual(Buffer.from(spliced.text, 'utf8'));
      expect(bytes.removedChars).toBe(spliced.removedChars);
    },
  );

  /** Text with unchanged stretches long enough to be sent as views. */
  const LONG = TEXT.map((text) => `${'x'.repeat(VIEW_BYTES)}${text}${'é'.repeat(VIEW_BYTES / 2)}`);
  test.prop([LONG.chain((text) => fc.tuple(fc.constant(text), fc.array(site(text))))], {
    numRuns: 40,
  })(
    "#24.4 the spliced chunks, sent one after the other, are the spliced text's bytes, and the unchanged parts are views of the body, not copies",
    ([text, sites]) => {
      const body = Buffer.from(text, 'utf8');
      const { chunks } = splice(body, text, sites);
      const spliced = Buffer.from(spliceEdits(text, sites).text, 'utf8');
      expect(Buffer.concat(chunks).equals(spliced)).toBe(true);
      // Unchanged stretches of VIEW_BYTES or more are the body's own memory, not copies.
      const bytesAt = (offset: number) => Buffer.byteLength(text.slice(0, offset));
      const stretches: number[] = [];
      let cursor = 0;
      for (const at of [...sites].sort((x, y) => x.start - y.start)) {
        if (at.start < cursor) continue;
        stretches.push(bytesAt(at.start) - bytesAt(cursor));
        cursor = at.end;
      }
      stretches.push(body.length - bytesAt(cursor));
      const long = stretches.filter((bytes) => bytes >= VIEW_BYTES);
      const views = chunks.filter((chunk) => chunk.buffer === body.buffer);
      const sum = (all: readonly number[]) => all.reduce((total, bytes) => total + bytes, 0);
      expect(sum(views.map((chunk) => chunk.length))).toBeGreaterThanOrEqual(sum(long));
      expect(chunks.length).toBeLessThanOrEqual(2 * long.length + 1);
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
      expect(Buffer.concat(splice(body, text, sites, { chars, bytes }).chunks)).toEqual(
        Buffer.concat(splice(body, text, sites).chunks),
      );
    },
  );

  test.prop([TEXT.chain((text) => fc.array(site(text)))], { numRuns: 200 })(
    '#24.4 orderedSites: in text order without overlaps, the sites themselves when they already are',
    (sites) => {
      const ordered = orderedSites(sites);
      const sorted = [...sites].sort((a, b) => a.start - b.start);
      let cursor = 0;
      const expected = sorted.filter((item) => {
        if (item.start < cursor) return false;
        cursor = item.end;
        return true;
      });
      expect(ordered).toEqual(expected);
      // Already in order: no copy, so the next request's splice and fingerprints see the same array.
      expect(orderedSites(ordered)).toBe(ordered);
    },
  );

  test.prop(
    [
      fc.array(
        fc.array(fc.record({ start: fc.nat(50), id: fc.nat() })).chain((run) =>
          fc.constantFrom(
            run,
            [...run].sort((a, b) => a.start - b.start),
          ),
        ),
        { maxLength: 4 },
      ),
    ],
    { numRuns: 300 },
  )('#24.4 mergedByStart orders as a stable sort of the runs one after another', (runs) => {
    const expected = runs.flat().sort((a, b) => a.start - b.start);
    expect(mergedByStart(runs)).toEqual(expected);
  });
});
