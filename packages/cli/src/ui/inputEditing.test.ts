import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { editInput, EMPTY_INPUT, type InputAction, type InputState } from './inputEditing.js';

const apply = (state: InputState, ...actions: InputAction[]): InputState =>
  actions.reduce(editInput, state);

describe('editInput', () => {
  it('inserts at the cursor and deletes back', () => {
    const state = apply(
      EMPTY_INPUT,
      { type: 'insert', text: 'helo' },
      { type: 'left' },
      { type: 'insert', text: 'l' },
    );
    expect(state).toEqual({ text: 'hello', cursor: 4 });
    expect(apply(state, { type: 'backspace' })).toEqual({ text: 'helo', cursor: 3 });
    expect(apply(EMPTY_INPUT, { type: 'backspace' })).toEqual(EMPTY_INPUT);
  });

  it('normalizes pasted line breaks', () => {
    expect(apply(EMPTY_INPUT, { type: 'insert', text: 'a\r\nb\rc' }).text).toBe('a\nb\nc');
  });

  it('kills to start, to end and the previous word', () => {
    const state = { text: 'fix the bug now', cursor: 11 };
    expect(editInput(state, { type: 'killStart' })).toEqual({ text: ' now', cursor: 0 });
    expect(editInput(state, { type: 'killEnd' })).toEqual({ text: 'fix the bug', cursor: 11 });
    expect(editInput(state, { type: 'killWord' })).toEqual({ text: 'fix the  now', cursor: 8 });
  });

  it('browses history and comes back to the unsent draft', () => {
    const history = ['first', 'second'];
    const draft = { text: 'draft', cursor: 5 };
    const up1 = editInput(draft, { type: 'historyPrev', history });
    expect(up1.text).toBe('second');
    const up2 = editInput(up1, { type: 'historyPrev', history });
    expect(up2.text).toBe('first');
    expect(editInput(up2, { type: 'historyPrev', history }).text).toBe('first');
    const down = apply(up2, { type: 'historyNext', history }, { type: 'historyNext', history });
    expect(down).toEqual({ text: 'draft', cursor: 5 });
  });

  const action: fc.Arbitrary<InputAction> = fc.oneof(
    fc.string({ maxLength: 5 }).map((text): InputAction => ({ type: 'insert', text })),
    fc.constantFrom<InputAction>(
      { type: 'backspace' },
      { type: 'left' },
      { type: 'right' },
      { type: 'home' },
      { type: 'end' },
      { type: 'killStart' },
      { type: 'killEnd' },
      { type: 'killWord' },
      { type: 'historyPrev', history: ['a', 'bb'] },
      { type: 'historyNext', history: ['a', 'bb'] },
    ),
  );

  test.prop([fc.array(action, { maxLength: 30 })], { numRuns: 300 })(
    'the cursor always stays within the text',
    (actions) => {
      const state = apply(EMPTY_INPUT, ...actions);
      expect(state.cursor).toBeGreaterThanOrEqual(0);
      expect(state.cursor).toBeLessThanOrEqual(state.text.length);
    },
  );
});
