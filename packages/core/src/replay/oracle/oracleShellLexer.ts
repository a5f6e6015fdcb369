/**
 * The replay oracle's own lexer for recorded shell commands. Written apart from the shell
 * classifier the strategies use (`shell/`), on purpose: the oracle grades that classifier, so it
 * must not share its bugs. It splits a command into words (quotes and escapes resolved; a word that
 * depends on expansion — `$x`, `$(…)`, backticks, globs, `~`, braces — is marked `fixed: false`)
 * and operators, and skips heredoc bodies. It never runs or expands anything.
 */

export interface OracleWord {
  readonly text: string;
  /** The word means the same whatever the environment: no expansion of any kind. */
  readonly fixed: boolean;
}

export type OracleToken =
  | { readonly kind: 'word'; readonly word: OracleWord }
  | { readonly kind: 'op'; readonly op: string; readonly fd?: string };

/** Longest first, so `>>` wins over `>`. */
const OPERATORS = [
  '&>>',
  '<<<',
  '<<-',
  '&&',
  '||',
  ';;',
  '>>',
  '>|',
  '>&',
  '<&',
  '<<',
  '&>',
  '|&',
  '|',
  '&',
  ';',
  '>',
  '<',
  '(',
  ')',
] as const;

const EXPANDING = new Set(['*', '?', '[', '{', '$', '`']);

class Lexer {
  private at = 0;
  private readonly tokens: OracleToken[] = [];
  private text = '';
  private fixed = true;
  private started = false;
  private readonly heredocs: { delimiter: string; stripTabs: boolean }[] = [];
  private heredocNext: { stripTabs: boolean } | undefined;

  constructor(private readonly source: string) {}

  run(): OracleToken[] {
    while (this.at < this.source.length) this.step();
    this.endWord();
    return this.tokens;
  }

  private step(): void {
    const c = this.source[this.at] ?? '';
    if (c === '\n') return this.newline();
    if (c === ' ' || c === '\t' || c === '\r') {
      this.endWord();
      this.at++;
      return;
    }
    if (c === '#' && !this.started) return this.skipComment();
    if (this.quoting(c)) return;
    const op = OPERATORS.find((candidate) => this.source.startsWith(candidate, this.at));
    if (op !== undefined) return this.operator(op);
    if (EXPANDING.has(c) || (c === '~' && !this.started)) this.fixed = false;
    this.append(c);
    this.at++;
  }

  /** Escapes, quotes and substitutions; false when `c` starts none of them. */
  private quoting(c: string): boolean {
    if (c === '\\') this.escape();
    else if (c === "'") this.singleQuoted();
    else if (c === '"') this.doubleQuoted();
    else if (c === '$' && this.source[this.at + 1] === '(') this.substitution();
    else if (c === '`') this.backticks();
    else return false;
    return true;
  }

  private append(chars: string): void {
    this.text += chars;
    this.started = true;
  }

  private endWord(): void {
    if (!this.started) return;
    const word = { text: this.text, fixed: this.fixed };
    this.text = '';
    this.fixed = true;
    this.started = false;
    if (this.heredocNext !== undefined) {
      this.heredocs.push({ delimiter: word.text, stripTabs: this.heredocNext.stripTabs });
      this.heredocNext = undefined;
    }
    this.tokens.push({ kind: 'word', word });
  }

  private operator(op: string): void {
    // `2>` / `1>>`: a word of digits right before a redirection is its descriptor.
    let fd: string | undefined;
    if ((op.startsWith('>') || op.startsWith('<')) && this.started && /^\d+$/.test(this.text)) {
      fd = this.text;
      this.text = '';
      this.started = false;
    }
    this.endWord();
    if (op === '<<' || op === '<<-') this.heredocNext = { stripTabs: op === '<<-' };
    this.tokens.push(fd === undefined ? { kind: 'op', op } : { kind: 'op', op, fd });
    this.at += op.length;
  }

  private newline(): void {
    this.endWord();
    this.tokens.push({ kind: 'op', op: ';' });
    this.at++;
    for (const heredoc of this.heredocs.splice(0)) this.skipHeredoc(heredoc);
  }

  private skipHeredoc(heredoc: { delimiter: string; stripTabs: boolean }): void {
    while (this.at < this.source.length) {
      const end = this.source.indexOf('\n', this.at);
      const stop = end === -1 ? this.source.length : end;
      let line = this.source.slice(this.at, stop).replace(/\r$/, '');
      if (heredoc.stripTabs) line = line.replace(/^\t+/, '');
      this.at = stop + 1;
      if (line === heredoc.delimiter) return;
    }
  }

  private skipComment(): void {
    const end = this.source.indexOf('\n', this.at);
    this.at = end === -1 ? this.source.length : end;
  }

  private escape(): void {
    const next = this.source[this.at + 1];
    this.at += 2;
    if (next === '\n' || next === undefined) return;
    this.append(next);
  }

  private singleQuoted(): void {
    const end = this.source.indexOf("'", this.at + 1);
    const stop = end === -1 ? this.source.length : end;
    this.append(this.source.slice(this.at + 1, stop));
    this.at = stop + 1;
  }

  private doubleQuoted(): void {
    this.started = true;
    this.at++;
    while (this.at < this.source.length && this.source[this.at] !== '"') {
      const c = this.source[this.at] ?? '';
      if (c === '\\' && '"\\$`\n'.includes(this.source[this.at + 1] ?? '')) {
        if (this.source[this.at + 1] !== '\n') this.append(this.source[this.at + 1] ?? '');
        this.at += 2;
        continue;
      }
      if (c === '$' || c === '`') this.fixed = false;
      this.append(c);
      this.at++;
    }
    this.at++;
  }

  /** `$(…)`, nesting and quotes inside included: the word's value is unknowable. */
  private substitution(): void {
    let depth = 0;
    this.fixed = false;
    while (this.at < this.source.length) {
      const c = this.source[this.at] ?? '';
      this.append(c);
      this.at++;
      if (c === '(') depth++;
      else if (c === ')' && --depth === 0) return;
    }
  }

  private backticks(): void {
    const end = this.source.indexOf('`', this.at + 1);
    const stop = end === -1 ? this.source.length : end;
    this.fixed = false;
    this.append(this.source.slice(this.at, stop + 1));
    this.at = stop + 1;
  }
}

/** The tokens of `command`; operators as written, newlines as `;`, heredoc bodies left out. */
export function lexShell(command: string): OracleToken[] {
  return new Lexer(command).run();
}
