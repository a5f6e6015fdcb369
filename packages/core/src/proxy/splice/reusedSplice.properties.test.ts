import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { proxyPointer } from '../decide/proxyPointer.js';
import { ConversationStore } from '../decide/conversationStore.js';
import { densifyRequest } from '../densify/densifyRequest.js';
import { reusedSplice, type SpliceMemo } from './reusedSplice.js';
import { SegmentedText } from '../wire/segmentedText.js';
import { bigSessionTurns } from '../test-utils/bigSession.js';
import { spliceEdits, VIEW_BYTES, type PointerSite } from './spliceEdits.js';

/** Text with multi-byte characters (and astral ones, two UTF-16 units each). */
const PIECE = fc.string({
  minLength: 1,
  maxLength: 60,
  unit: fc.constantFrom('a', '"', 'é', '€', '😀', '\n'),
});

/** One request after another: keep a prefix of the previous text, then new text. */
const STEP = fc.record({
  /** Where the kept prefix ends, as a fraction of the previous text (rewind, edit, append). */
  keep: fc.oneof(
    fc.constant(1),
    fc.double({ min: 0.9, max: 1, noNaN: true }),
    fc.double({ min: 0, max: 1, noNaN: true }),
  ),
  tail: fc.array(PIECE, { maxLength: 8 }),
  /** Fraction of the previous sites inside the kept prefix that stay pointers. */
  stay: fc.constantFrom(1, 1, 0.8, 0.3),
  /** New sites, as fractions of the new text's length. */
  fresh: fc.array(
    fc.tuple(
      fc.oneof(
        fc.double({ min: 0.95, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
      ),
      fc.nat(40),
    ),
    {
      maxLength: 6,
    },
  ),
  long: fc.boolean(),
  cacheControl: fc.boolean(),
});

/** Offsets between whole characters, as JSON value spans are. */
const whole = (text: string, offset: number) =>
  /[\uDC00-\uDFFF]/.test(text.charAt(offset)) ? offset - 1 : offset;

let ids = 0;
function freshSite(text: string, at: number, length: number, cacheControl: boolean): PointerSite {
  const start = whole(text, Math.floor(at * text.length));
  const end = whole(text, Math.min(text.length, start + length));
  const recallId = `r${String(++ids % 7).padStart(10, '0')}`;
  return {
    callId: 'c',
    messageIndex: 0,
    blockIndex: 0,
    start,
    end: Math.max(start, end),
    recallId,
    pointer: proxyPointer(recallId),
    ...(cacheControl ? { cacheControlRaw: '{"type":"ephemeral"}' } : {}),
  };
}

describe('reusedSplice', () => {
  test.prop([fc.array(STEP, { minLength: 2, maxLength: 8 }), fc.constantFrom(40, 300)], {
    numRuns: 150,
  })(
    "#24.4 resuming from the previous request's splice gives the bytes and removed characters of a fresh splice, on append, rewind and edit, with the text as the kept pieces plus the new part",
    (steps, joinBytes) => {
      let text = '';
      let pieces = SegmentedText.of('');
      let sites: PointerSite[] = [];
      let memo: SpliceMemo | undefined;
      for (const step of steps) {
        // Site objects carry over only where the bytes before their end are kept, as the read cache hands them.
        const cut = whole(text, Math.floor(text.length * step.keep));
        const kept = sites.filter((site, index) => site.end <= cut && index % 10 < step.stay * 10);
        const tail = `${step.long ? 'é'.repeat(VIEW_BYTES) : ''}${step.tail.join('')}`;
        text = `${text.slice(0, cut)}${tail}`;
        pieces = pieces.withTail(cut, tail);
        const fresh = step.fresh.map(([at, length]) =>
          freshSite(text, at, length, step.cacheControl),
        );
        sites = [...kept, ...fresh];
        const body = Buffer.from(text, 'utf8');
        const resumed = reusedSplice(body, pieces, sites, {
          joinBytes,
          ...(memo === undefined ? {} : { previous: memo }),
        });
        const fromScratch = reusedSplice(body, text, sites, { joinBytes });
        const spliced = spliceEdits(text, sites);
        const expected = Buffer.from(spliced.text, 'utf8');
        expect(Buffer.concat(resumed.chunks).equals(expected)).toBe(true);
        expect(Buffer.concat(fromScratch.chunks).equals(expected)).toBe(true);
        expect(resumed.removedChars).toBe(spliced.removedChars);
        memo = resumed.memo;
      }
    },
  );
});

describe('densifyRequest reuses the previous splice', () => {
  test('#24.4 the next request of a conversation sends the joined prefix chunks the previous one built, not new copies', () => {
    const store = new ConversationStore();
    const results = bigSessionTurns(600_000, 2).map((body, now) =>
      densifyRequest({
        api: 'anthropic',
        body: Buffer.from(body),
        sessionId: 's',
        store,
        now,
        pressureTokens: 150e3,
      }),
    );
    const [first, second] = results.map((result) => result.chunks ?? [result.body]);
    expect(first?.length).toBeGreaterThan(1);
    expect(second?.[0]).toBe(first?.[0]);
    expect(results[1]?.pointers).toBeGreaterThan(0);
  });

  test('#24.4 the next request copies only the part after the last complete chunk: ~128 KiB of a 2.8 MB body, not up to a megabyte', () => {
    const store = new ConversationStore();
    const bodies = bigSessionTurns(600_000, 3, { nonAscii: true }).map((text) => Buffer.from(text));
    const results = bodies.map((body, now) =>
      densifyRequest({ api: 'anthropic', body, sessionId: 's', store, now, pressureTokens: 150e3 }),
    );
    for (const k of [1, 2]) {
      const body = bodies[k] as Buffer;
      const kept = new Set(results[k - 1]?.chunks);
      // Bytes this request copied: chunks neither kept from the previous one nor views of its body.
      const copied = (results[k]?.chunks ?? [])
        .filter((chunk) => !kept.has(chunk) && chunk.buffer !== body.buffer)
        .reduce((sum, chunk) => sum + chunk.length, 0);
      expect(body.length).toBeGreaterThan(2_500_000);
      expect(copied).toBeLessThan(160 * 1024);
    }
  });
});
