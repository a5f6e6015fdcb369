import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { sentSpans, type TextEdit } from './sentSpans.js';

/** Messages as text, with edits inside them (start, end within one message; never overlapping). */
const messagesWithEdits = fc
  .array(
    fc.record({
      text: fc.string({ minLength: 1, maxLength: 30 }),
      edit: fc.option(
        fc.record({ from: fc.nat(30), to: fc.nat(30), replacement: fc.string({ maxLength: 12 }) }),
      ),
    }),
    { minLength: 1, maxLength: 20 },
  )
  .map((messages) => {
    let offset = 1;
    const spans: { start: number; end: number }[] = [];
    const edits: (TextEdit & { replacement: string })[] = [];
    for (const message of messages) {
      const start = offset;
      const end = start + message.text.length;
      spans.push({ start, end });
      if (message.edit !== null) {
        const a = Math.min(message.edit.from, message.edit.to) % message.text.length;
        const b = Math.min(Math.max(message.edit.from, message.edit.to), message.text.length);
        const replacement = message.edit.replacement;
        edits.push({
          start: start + a,
          end: start + Math.max(a, b),
          length: replacement.length,
          replacement,
        });
      }
      offset = end + 1;
    }
    const original = `[${messages.map((message) => message.text).join(',')}]`;
    return { original, spans, edits };
  });

function apply(text: string, edits: readonly (TextEdit & { replacement: string })[]): string {
  let out = '';
  let cursor = 0;
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    out += text.slice(cursor, edit.start) + edit.replacement;
    cursor = edit.end;
  }
  return out + text.slice(cursor);
}

describe('sentSpans', () => {
  test.prop([messagesWithEdits])(
    '#24.1 each message sits where the splice put it: the sent slice is the edited original message',
    ({ original, spans, edits }) => {
      const sent = apply(original, edits);
      const mapped = sentSpans(spans, [...edits].reverse());
      spans.forEach((span, index) => {
        const inside = edits
          .filter((edit) => edit.start >= span.start && edit.end <= span.end)
          .map((edit) => ({ ...edit, start: edit.start - span.start, end: edit.end - span.start }));
        const expected = apply(original.slice(span.start, span.end), inside);
        const at = mapped[index] as { start: number; end: number };
        expect(sent.slice(at.start, at.end)).toBe(expected);
      });
    },
  );
});
