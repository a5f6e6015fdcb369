import { describe, expect, it } from 'vitest';
import type { Key } from 'ink';
import { applyKeyIntents, keyIntents, type InputBoxState } from './keyIntents.js';
import { EMPTY_INPUT } from './inputEditing.js';

const noKey: Key = {
  upArrow: false,
  downArrow: false,
  leftArrow: false,
  rightArrow: false,
  pageDown: false,
  pageUp: false,
  home: false,
  end: false,
  return: false,
  escape: false,
  ctrl: false,
  shift: false,
  tab: false,
  backspace: false,
  delete: false,
  meta: false,
  super: false,
  hyper: false,
  capsLock: false,
  numLock: false,
};
const key = (patch: Partial<Key>): Key => ({ ...noKey, ...patch });
const start: InputBoxState = { input: EMPTY_INPUT, candidates: [], pasting: false };
const context = { pasting: false, history: [] };
const noCompletion = () => undefined;

describe('keyIntents', () => {
  it('maps single keys to edits, submit, completion and exit', () => {
    expect(keyIntents('a', noKey, context)).toEqual([
      { type: 'edit', action: { type: 'insert', text: 'a' } },
    ]);
    expect(keyIntents('', key({ return: true }), context)).toEqual([{ type: 'submit' }]);
    expect(keyIntents('', key({ tab: true }), context)).toEqual([{ type: 'complete' }]);
    expect(keyIntents('d', key({ ctrl: true }), context)).toEqual([{ type: 'exit' }]);
    expect(keyIntents('', key({ delete: true }), context)).toEqual([
      { type: 'edit', action: { type: 'backspace' } },
    ]);
    expect(keyIntents('w', key({ ctrl: true }), context)).toEqual([
      { type: 'edit', action: { type: 'killWord' } },
    ]);
  });

  it('splits lines typed ahead in one chunk into submits, in order', () => {
    const outcome = applyKeyIntents(
      start,
      keyIntents('/set a 1\r/set b 2\rhalf', noKey, context),
      noCompletion,
    );
    expect(outcome.submitted).toEqual(['/set a 1', '/set b 2']);
    expect(outcome.input.text).toBe('half');
  });

  it('a chunk ending in Tab completes what came before it', () => {
    const outcome = applyKeyIntents(start, keyIntents('/se\t', noKey, context), (text) => ({
      text: text === '/se' ? '/set ' : text,
      candidates: ['set'],
    }));
    expect(outcome.input).toEqual({ text: '/set ', cursor: 5 });
  });

  it('keeps line breaks of a bracketed paste as text', () => {
    let state = applyKeyIntents(start, keyIntents('[200~', noKey, context), noCompletion);
    expect(state.pasting).toBe(true);
    state = applyKeyIntents(
      state,
      keyIntents('line 1\rline 2', noKey, { pasting: true, history: [] }),
      noCompletion,
    );
    state = applyKeyIntents(
      state,
      keyIntents('[201~', noKey, { pasting: true, history: [] }),
      noCompletion,
    );
    expect(state.pasting).toBe(false);
    expect(state.input.text).toBe('line 1\nline 2');
    expect(state.submitted).toEqual([]);
  });

  it('Ctrl-D exits only on an empty line', () => {
    const exit = [{ type: 'exit' } as const];
    expect(applyKeyIntents(start, exit, noCompletion).exit).toBe(true);
    const typed = { ...start, input: { text: 'x', cursor: 1 } };
    expect(applyKeyIntents(typed, exit, noCompletion).exit).toBe(false);
  });
});
