/**
 * The input line's editing as a pure reducer: insert (typed or pasted text), delete back, move,
 * kill to start/end/previous word, and browse earlier inputs (↑/↓, keeping the unsent draft).
 */

export interface InputState {
  readonly text: string;
  /** Offset in `text`, 0…text.length. */
  readonly cursor: number;
  /** Index into the history while browsing it; `undefined` when editing the draft. */
  readonly historyIndex?: number;
  /** The unsent text, kept while browsing history. */
  readonly draft?: string;
}

export const EMPTY_INPUT: InputState = { text: '', cursor: 0 };

export type InputAction =
  | { readonly type: 'insert'; readonly text: string }
  | { readonly type: 'backspace' }
  | { readonly type: 'left' }
  | { readonly type: 'right' }
  | { readonly type: 'home' }
  | { readonly type: 'end' }
  | { readonly type: 'killStart' }
  | { readonly type: 'killEnd' }
  | { readonly type: 'killWord' }
  | { readonly type: 'historyPrev'; readonly history: readonly string[] }
  | { readonly type: 'historyNext'; readonly history: readonly string[] }
  | { readonly type: 'replace'; readonly text: string };

function at(text: string, cursor: number): InputState {
  return { text, cursor: Math.max(0, Math.min(text.length, cursor)) };
}

function browse(state: InputState, history: readonly string[], step: -1 | 1): InputState {
  if (history.length === 0) return state;
  const current = state.historyIndex ?? history.length;
  const next = Math.max(0, Math.min(history.length, current + step));
  if (next === current) return state;
  const draft = state.historyIndex === undefined ? state.text : (state.draft ?? '');
  if (next === history.length) return at(draft, draft.length);
  const text = history[next] ?? '';
  return { text, cursor: text.length, historyIndex: next, draft };
}

function killWord(state: InputState): InputState {
  const before = state.text.slice(0, state.cursor);
  const start = before.replace(/\S*\s*$/, '').length;
  return at(state.text.slice(0, start) + state.text.slice(state.cursor), start);
}

export function editInput(state: InputState, action: InputAction): InputState {
  const { text, cursor } = state;
  switch (action.type) {
    case 'insert': {
      const inserted = action.text.replace(/\r\n?/g, '\n');
      return at(text.slice(0, cursor) + inserted + text.slice(cursor), cursor + inserted.length);
    }
    case 'backspace':
      return cursor === 0 ? state : at(text.slice(0, cursor - 1) + text.slice(cursor), cursor - 1);
    case 'left':
      return at(text, cursor - 1);
    case 'right':
      return at(text, cursor + 1);
    case 'home':
      return at(text, 0);
    case 'end':
      return at(text, text.length);
    case 'killStart':
      return at(text.slice(cursor), 0);
    case 'killEnd':
      return at(text.slice(0, cursor), cursor);
    case 'killWord':
      return killWord(state);
    case 'historyPrev':
      return browse(state, action.history, -1);
    case 'historyNext':
      return browse(state, action.history, 1);
    case 'replace':
      return at(action.text, action.text.length);
  }
}
