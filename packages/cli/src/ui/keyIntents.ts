/**
 * What a chunk of terminal input means for the input line. A key press is one intent; a chunk may
 * carry several (text typed ahead and Enter, sent before the app was listening or by a script),
 * which are split on line breaks and tabs. Bracketed paste (`ESC[200~` … `ESC[201~`) marks real
 * pastes, whose line breaks stay in the text instead of submitting.
 */
import type { Key } from 'ink';
import type { Completion } from '../commands/completeInput.js';
import { editInput, EMPTY_INPUT, type InputAction, type InputState } from './inputEditing.js';

export type KeyIntent =
  | { readonly type: 'edit'; readonly action: InputAction }
  | { readonly type: 'submit' }
  | { readonly type: 'complete' }
  | { readonly type: 'exit' }
  | { readonly type: 'paste'; readonly on: boolean };

const PASTE_START = '[200~';
const PASTE_END = '[201~';

/** The editing action a single key stands for, if any. */
export function keyAction(
  input: string,
  key: Key,
  history: readonly string[],
): InputAction | undefined {
  if (key.leftArrow) return { type: 'left' };
  if (key.rightArrow) return { type: 'right' };
  if (key.upArrow) return { type: 'historyPrev', history };
  if (key.downArrow) return { type: 'historyNext', history };
  if (key.home) return { type: 'home' };
  if (key.end) return { type: 'end' };
  // Terminals send DEL (0x7f) for Backspace, which ink reports as `delete`.
  if (key.backspace || key.delete) return { type: 'backspace' };
  if (key.ctrl) {
    const byLetter: Readonly<Record<string, InputAction>> = {
      a: { type: 'home' },
      e: { type: 'end' },
      u: { type: 'killStart' },
      k: { type: 'killEnd' },
      w: { type: 'killWord' },
      b: { type: 'left' },
      f: { type: 'right' },
    };
    return byLetter[input];
  }
  if (key.meta || key.escape || key.tab || key.return || input === '') return undefined;
  return { type: 'insert', text: input };
}

function pastedIntents(input: string, key: Key): KeyIntent[] {
  const text = key.return ? '\n' : input;
  return text === '' ? [] : [{ type: 'edit', action: { type: 'insert', text } }];
}

/** Splits typed-ahead text on Enter and Tab. */
function chunkIntents(input: string): KeyIntent[] {
  const intents: KeyIntent[] = [];
  for (const part of input.split(/(\r\n|\r|\n|\t)/)) {
    if (part === '') continue;
    if (part === '\t') intents.push({ type: 'complete' });
    else if (/^[\r\n]+$/.test(part)) intents.push({ type: 'submit' });
    else intents.push({ type: 'edit', action: { type: 'insert', text: part } });
  }
  return intents;
}

export function keyIntents(
  input: string,
  key: Key,
  context: { readonly pasting: boolean; readonly history: readonly string[] },
): KeyIntent[] {
  if (input === PASTE_START) return [{ type: 'paste', on: true }];
  if (input === PASTE_END) return [{ type: 'paste', on: false }];
  if (context.pasting) return pastedIntents(input, key);
  if (key.return && !key.meta) return [{ type: 'submit' }];
  if (key.tab) return [{ type: 'complete' }];
  if (key.ctrl && input === 'd') return [{ type: 'exit' }];
  if (!key.ctrl && !key.meta && input.length > 1 && /[\r\n\t]/.test(input)) {
    return chunkIntents(input);
  }
  const action = keyAction(input, key, context.history);
  return action === undefined ? [] : [{ type: 'edit', action }];
}

export interface InputBoxState {
  readonly input: InputState;
  /** Completion candidates on show. */
  readonly candidates: readonly string[];
  readonly pasting: boolean;
}

export interface IntentOutcome extends InputBoxState {
  /** Lines to submit, in order (several when lines were typed ahead in one chunk). */
  readonly submitted: readonly string[];
  readonly exit: boolean;
}

function completeAt(
  state: InputState,
  complete: (text: string) => Completion | undefined,
): { readonly input: InputState; readonly candidates: readonly string[] } | undefined {
  const completion = complete(state.text.slice(0, state.cursor));
  if (completion === undefined) return undefined;
  const rest = state.text.slice(state.cursor);
  return {
    input: { text: completion.text + rest, cursor: completion.text.length },
    candidates: completion.candidates.length > 1 ? completion.candidates : [],
  };
}

/** Applies a chunk's intents in order. Pure: the caller submits and exits. */
export function applyKeyIntents(
  start: InputBoxState,
  intents: readonly KeyIntent[],
  complete: (text: string) => Completion | undefined,
): IntentOutcome {
  let { input, candidates, pasting } = start;
  const submitted: string[] = [];
  let exit = false;
  for (const intent of intents) {
    switch (intent.type) {
      case 'paste':
        pasting = intent.on;
        break;
      case 'edit':
        input = editInput(input, intent.action);
        candidates = [];
        break;
      case 'submit':
        if (input.text.trim() !== '') {
          submitted.push(input.text);
          input = EMPTY_INPUT;
          candidates = [];
        }
        break;
      case 'complete': {
        const completed = completeAt(input, complete);
        if (completed) ({ input, candidates } = completed);
        break;
      }
      case 'exit':
        exit = exit || input.text === '';
        break;
    }
  }
  return { input, candidates, pasting, exit, submitted };
}
