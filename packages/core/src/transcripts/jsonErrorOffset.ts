/**
 * Where a JSON text first goes wrong. `JSON.parse` on Node 20 often names the bad token without its
 * position, so import errors could not say which line to look at; this small validating scanner
 * finds the offset. It runs only after a parse has failed.
 */

class Failure extends Error {
  constructor(readonly offset: number) {
    super(`invalid JSON at ${offset}`);
  }
}

const LITERALS = ['true', 'false', 'null'];
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const ESCAPE = /\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

class Scanner {
  constructor(private readonly text: string) {}

  skipSpace(i: number): number {
    while (i < this.text.length && ' \t\n\r'.includes(this.text[i] ?? '')) i += 1;
    return i;
  }

  private sticky(pattern: RegExp, i: number): number {
    pattern.lastIndex = i;
    if (!pattern.test(this.text)) throw new Failure(i);
    return pattern.lastIndex;
  }

  /** A string starting at `i` (its opening quote); control characters are not allowed raw. */
  private string(i: number): number {
    let at = i + 1;
    while (at < this.text.length) {
      const ch = this.text.charCodeAt(at);
      if (ch === 0x22) return at + 1;
      if (ch < 0x20) throw new Failure(at);
      at = ch === 0x5c ? this.sticky(ESCAPE, at) : at + 1;
    }
    throw new Failure(at);
  }

  private sequence(i: number, close: string, item: (at: number) => number): number {
    let at = this.skipSpace(i + 1);
    if (this.text[at] === close) return at + 1;
    for (;;) {
      at = this.skipSpace(item(this.skipSpace(at)));
      if (this.text[at] === close) return at + 1;
      if (this.text[at] !== ',') throw new Failure(at);
      at += 1;
    }
  }

  private member(i: number): number {
    if (this.text[i] !== '"') throw new Failure(i);
    const afterKey = this.skipSpace(this.string(i));
    if (this.text[afterKey] !== ':') throw new Failure(afterKey);
    return this.value(this.skipSpace(afterKey + 1));
  }

  value(i: number): number {
    const ch = this.text[i];
    if (ch === '{') return this.sequence(i, '}', (at) => this.member(at));
    if (ch === '[') return this.sequence(i, ']', (at) => this.value(at));
    if (ch === '"') return this.string(i);
    const literal = LITERALS.find((word) => this.text.startsWith(word, i));
    if (literal !== undefined) return i + literal.length;
    return this.sticky(NUMBER, i);
  }
}

/** The offset of the first syntax error in `text`, or undefined when it is valid JSON. */
export function jsonErrorOffset(text: string): number | undefined {
  const scanner = new Scanner(text);
  try {
    const end = scanner.skipSpace(scanner.value(scanner.skipSpace(0)));
    return end === text.length ? undefined : end;
  } catch (error) {
    if (error instanceof Failure) return error.offset;
    if (error instanceof RangeError) return undefined; // nested too deep to scan: no line, no crash
    throw error;
  }
}
