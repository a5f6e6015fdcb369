/**
 * A small POSIX-shell tokenizer for recognising what a recorded command does: words with quotes and
 * escapes resolved, control and redirection operators, and heredoc bodies skipped. It never runs
 * anything and does not expand variables or globs; words that contain them are marked non-literal.
 */

export type ShellOperator = '&&' | '||' | ';' | '|' | '&' | '\n' | '>' | '>>' | '<' | '<<' | '<<<';

export type ShellToken =
  | { readonly kind: 'word'; readonly value: string; readonly literal: boolean }
  | {
      readonly kind: 'op';
      readonly value: ShellOperator;
      /** For redirections: the descriptor written before the operator (`2>` → '2', `&>` → '&'). */
      readonly fd?: string;
    };

const OPERATORS: readonly ShellOperator[] = [
  '&&',
  '||',
  '<<<',
  '<<',
  '>>',
  ';',
  '|',
  '&',
  '>',
  '<',
];

/** Index just past the heredoc body that starts on the line after `from`, ended by `delimiter`. */
function skipHeredoc(text: string, from: number, delimiter: string): number {
  let lineStart = text.indexOf('\n', from);
  while (lineStart !== -1) {
    lineStart += 1;
    const lineEnd = text.indexOf('\n', lineStart);
    const line = text.slice(lineStart, lineEnd === -1 ? text.length : lineEnd);
    if (line.replace(/^\t+/, '') === delimiter || lineEnd === -1) {
      return lineEnd === -1 ? text.length : lineEnd;
    }
    lineStart = lineEnd;
  }
  return text.length;
}

class ShellTokenizer {
  readonly tokens: ShellToken[] = [];
  private value = '';
  private literal = true;
  private started = false;
  private nextFd: string | undefined;
  private readonly heredocs: string[] = [];
  private i = 0;

  constructor(private readonly text: string) {}

  run(): ShellToken[] {
    while (this.i < this.text.length) this.step(this.text[this.i] ?? '');
    this.flush();
    return this.tokens;
  }

  private flush(): void {
    if (this.started) this.tokens.push({ kind: 'word', value: this.value, literal: this.literal });
    this.value = '';
    this.literal = true;
    this.started = false;
  }

  private step(ch: string): void {
    if (ch === '\n' && this.heredocs.length > 0) this.heredocBodies();
    else if (ch === ' ' || ch === '\t' || ch === '\r') {
      this.flush();
      this.i += 1;
    } else if (ch === '#' && !this.started) this.comment();
    else if (ch === '\\' && this.i + 1 < this.text.length) this.escaped();
    else if (ch === "'") this.singleQuoted();
    else if (ch === '"') this.doubleQuoted();
    else if ((ch === '$' && this.text[this.i + 1] === '(') || ch === '`') this.substitution(ch);
    else this.operatorOrChar(ch);
  }

  private heredocBodies(): void {
    this.flush();
    this.tokens.push({ kind: 'op', value: '\n' });
    for (const delimiter of this.heredocs.splice(0))
      this.i = skipHeredoc(this.text, this.i, delimiter);
  }

  private comment(): void {
    const end = this.text.indexOf('\n', this.i);
    this.i = end === -1 ? this.text.length : end;
  }

  private escaped(): void {
    const next = this.text[this.i + 1] ?? '';
    if (next !== '\n') this.append(next);
    this.i += 2;
  }

  private append(text: string): void {
    this.value += text;
    this.started = true;
  }

  private singleQuoted(): void {
    const end = this.text.indexOf("'", this.i + 1);
    const stop = end === -1 ? this.text.length : end;
    this.append(this.text.slice(this.i + 1, stop));
    this.i = stop + 1;
  }

  private doubleQuoted(): void {
    this.started = true;
    let j = this.i + 1;
    while (j < this.text.length && this.text[j] !== '"') {
      const ch = this.text[j] ?? '';
      const next = this.text[j + 1] ?? '';
      if (ch === '\\' && '"\\$`\n'.includes(next) && next !== '') {
        this.value += next;
        j += 2;
        continue;
      }
      if (ch === '$' || ch === '`') this.literal = false;
      this.value += ch;
      j += 1;
    }
    this.i = j + 1;
  }

  /** `$(…)` or a backtick substitution, kept raw in the word. */
  private substitution(ch: string): void {
    this.literal = false;
    let j = this.i + 1;
    if (ch === '`') {
      const end = this.text.indexOf('`', j);
      j = end === -1 ? this.text.length : end + 1;
    } else {
      let depth = 0;
      for (; j < this.text.length; j++) {
        if (this.text[j] === '(') depth += 1;
        else if (this.text[j] === ')' && --depth === 0) break;
      }
      j += 1;
    }
    this.append(this.text.slice(this.i, j));
    this.i = j;
  }

  private operatorOrChar(ch: string): void {
    const op =
      ch === '\n' ? '\n' : OPERATORS.find((candidate) => this.text.startsWith(candidate, this.i));
    if (op === undefined) {
      if ('$*?['.includes(ch)) this.literal = false;
      this.append(ch);
      this.i += 1;
    } else if (op === '&' && this.text[this.i + 1] === '>') {
      this.flush();
      this.nextFd = '&';
      this.i += 1;
    } else this.operator(op);
  }

  private operator(op: ShellOperator): void {
    let fd = this.nextFd;
    this.nextFd = undefined;
    const redirect = op === '>' || op === '>>' || op === '<';
    if (redirect && this.started && /^\d+$/.test(this.value)) {
      fd = this.value;
      this.started = false;
      this.value = '';
    }
    this.flush();
    this.i += op.length;
    if ((op === '>' || op === '<') && this.text[this.i] === '&') {
      // `>&2`, `2>&1`: duplicates a descriptor, names no file.
      this.i += 1 + (/^\d*-?/.exec(this.text.slice(this.i + 1))?.[0].length ?? 0);
      return;
    }
    this.tokens.push(fd === undefined ? { kind: 'op', value: op } : { kind: 'op', value: op, fd });
    if (op === '<<') this.heredocDelimiter();
  }

  private heredocDelimiter(): void {
    if (this.text[this.i] === '-') this.i += 1;
    const match = /^\s*(['"]?)([^\s'";|&<>]+)\1/.exec(this.text.slice(this.i));
    if (match?.[2] === undefined) return;
    this.heredocs.push(match[2]);
    this.tokens.push({ kind: 'word', value: match[2], literal: true });
    this.i += match[0].length;
  }
}

/**
 * The tokens of `command`. Heredoc bodies are removed (the line that opens one is kept), comments
 * are dropped, and a redirection's descriptor prefix (`2>`, `&>`) is recorded on the operator.
 */
export function tokenizeShell(command: string): ShellToken[] {
  return new ShellTokenizer(command).run();
}
