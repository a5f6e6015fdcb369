/**
 * A deliberately small shell lexer for the file-operation classifier: words (with single quotes,
 * double quotes and backslash escapes resolved) and control operators. Anything whose meaning
 * depends on the shell's state — variables, command substitution, globs, `~` — makes it give up
 * (`undefined`), so what it does return means the same thing in every shell session.
 */

export type ShellToken =
  | { readonly kind: 'word'; readonly value: string }
  | { readonly kind: 'op'; readonly value: string };

const OPERATORS = ['<<-', '&&', '||', '>>', '<<', '2>', '&>', '|', '&', ';', '>', '<', '(', ')'];
/** Unquoted characters that expand or glob. */
const EXPANDING = new Set(['$', '`', '*', '?', '[', ']', '{', '}', '~', '!']);

interface Cursor {
  readonly text: string;
  at: number;
}

/** The tokens of a one-line command, or `undefined` when any part would be expanded by the shell. */
export function shellWords(line: string): ShellToken[] | undefined {
  if (line.includes('\n')) return undefined;
  const cursor: Cursor = { text: line, at: 0 };
  const tokens: ShellToken[] = [];
  for (;;) {
    while (cursor.at < line.length && /\s/.test(line[cursor.at] as string)) cursor.at++;
    if (cursor.at >= line.length) return tokens;
    const op = OPERATORS.find((candidate) => line.startsWith(candidate, cursor.at));
    if (op !== undefined && !(op === '2>' && isWordContinuation(line, cursor.at))) {
      tokens.push({ kind: 'op', value: op });
      cursor.at += op.length;
      continue;
    }
    const word = readWord(cursor);
    if (word === undefined) return undefined;
    tokens.push({ kind: 'word', value: word });
  }
}

/** `2>` is an operator only at the start of a word (`file2>` is not). */
function isWordContinuation(line: string, at: number): boolean {
  return at > 0 && !/\s/.test(line[at - 1] as string);
}

function readWord(cursor: Cursor): string | undefined {
  const { text } = cursor;
  let word = '';
  while (cursor.at < text.length) {
    const ch = text[cursor.at] as string;
    if (/\s/.test(ch) || OPERATORS.some((op) => op !== '2>' && text.startsWith(op, cursor.at))) {
      break;
    }
    if (ch === "'") {
      const end = text.indexOf("'", cursor.at + 1);
      if (end === -1) return undefined;
      word += text.slice(cursor.at + 1, end);
      cursor.at = end + 1;
    } else if (ch === '"') {
      const end = text.indexOf('"', cursor.at + 1);
      const inner = end === -1 ? undefined : text.slice(cursor.at + 1, end);
      if (inner === undefined || /[$`\\!]/.test(inner)) return undefined;
      word += inner;
      cursor.at = end + 1;
    } else if (ch === '\\') {
      const next = text[cursor.at + 1];
      if (next === undefined) return undefined;
      word += next;
      cursor.at += 2;
    } else if (EXPANDING.has(ch)) {
      return undefined;
    } else {
      word += ch;
      cursor.at++;
    }
  }
  return word;
}

/**
 * Splits off a here-document: `{ line, body }` for `cmd <<'EOF'\n…\nEOF` (nothing may follow the
 * terminator but blank lines), `{ line }` for a one-line command, `undefined` for anything else
 * with several lines.
 */
export function splitHereDocument(
  command: string,
): { readonly line: string; readonly hereDoc: boolean } | undefined {
  const lines = command.split('\n');
  const first = lines[0] ?? '';
  if (lines.length === 1 || lines.slice(1).every((l) => l.trim() === '')) {
    return { line: first, hereDoc: false };
  }
  const marker = /<<(-?)\s*(['"]?)([A-Za-z_][A-Za-z0-9_]*)\2/.exec(first);
  if (marker === null) return undefined;
  const stripTabs = marker[1] === '-';
  const delimiter = marker[3] as string;
  const end = lines.findIndex(
    (l, i) => i > 0 && (stripTabs ? l.replace(/^\t+/, '') : l) === delimiter,
  );
  if (end === -1 || lines.slice(end + 1).some((l) => l.trim() !== '')) return undefined;
  const line = first.slice(0, marker.index) + first.slice(marker.index + marker[0].length);
  return { line, hereDoc: true };
}
