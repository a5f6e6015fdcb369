/**
 * The outline of a file as a read showed it: the names its lines declare (functions, classes,
 * types, interfaces, enums, top-level constants, methods) with their line numbers, in file order.
 * Line numbers come from the read's own prefixes (`    12→`, `12\t`) when it has them, else from
 * the line's position after the file line the output starts at (a shell read of a range); with
 * that start unknown, an unnumbered line's name goes without one. Pattern-based and
 * language-agnostic; pure.
 */

export interface OutlineEntry {
  readonly name: string;
  /** Absent where the read's start in the file is unknown and its line carries no number. */
  readonly line?: number;
}

/** A read's line-number prefix: Claude Code's `    12→code`, `cat -n`'s `    12\tcode`. */
const NUMBERED = /^\s*(\d+)(?:→|\t)(.*)$/;
const NAME = String.raw`([A-Za-z_$][\w$]*)`;

/** Declarations, tried in order on each line (its code, without the read's prefix). */
const DECLARATIONS: readonly RegExp[] = [
  // TS/JS, Rust, Swift, Kotlin, Scala, PHP: a keyword that declares a named thing.
  new RegExp(
    String.raw`^\s*(?:(?:export|default|declare|abstract|public|pub(?:\([^)]*\))?|private|protected|internal|static|final|sealed|data|open|async|unsafe|extern|override|partial)\s+)*` +
      String.raw`(?:function\*?|class|interface|type|enum|namespace|module|struct|trait|impl|object|fn|def|func|fun|record|mod)\s+${NAME}`,
  ),
  // Go: methods `func (r *T) Name(`.
  new RegExp(String.raw`^func\s+\([^)]*\)\s*${NAME}`),
  // Constants and variables at the top level or exported.
  new RegExp(String.raw`^(?:export\s+)?(?:const|let|var|static|const fn)\s+${NAME}`),
  new RegExp(String.raw`^\s*export\s+(?:const|let|var)\s+${NAME}`),
  // Python and shell-style top-level constants: `MAX_SIZE = 4`.
  /^([A-Z][A-Z0-9_]{2,})\s*[:=]/,
  // Class members: `  async name(args) {`, `  name(a: T): R {` (a lower-case name and an opening brace).
  new RegExp(
    String.raw`^\s+(?:(?:public|private|protected|static|readonly|async|override|get|set|abstract)\s+)*([a-z_$][\w$]*)\s*(?:<[^>]*>)?\([^)]*\)?\s*(?::\s*[^=;{]+)?\{\s*$`,
  ),
  // SQL tables and views.
  /^\s*create\s+(?:or\s+replace\s+)?(?:table|view|index|function|type)\s+(?:if\s+not\s+exists\s+)?["`]?([\w.]+)/i,
];

const NOT_NAMES: ReadonlySet<string> = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'return',
  'function',
  'else',
  'do',
  'try',
  'with',
  'new',
  'await',
  'super',
  'constructor',
  'this',
]);

function declaredName(code: string): string | undefined {
  for (const pattern of DECLARATIONS) {
    const name = pattern.exec(code)?.[1];
    if (name !== undefined && name.length > 1 && !NOT_NAMES.has(name)) return name;
  }
  return undefined;
}

/**
 * The declarations of `text` (a file read's output), each name once, in file order. `firstLine`:
 * the file line the output's first line is (null: not known).
 */
export function fileOutline(text: string, firstLine: number | null = 1): OutlineEntry[] {
  const entries: OutlineEntry[] = [];
  const seen = new Set<string>();
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const raw = lines[index] as string;
    const numbered = NUMBERED.exec(raw);
    const code = numbered?.[2] ?? raw;
    const name = declaredName(code);
    if (name === undefined || seen.has(name)) continue;
    seen.add(name);
    const line =
      numbered !== null ? Number(numbered[1]) : firstLine === null ? undefined : firstLine + index;
    entries.push(line === undefined ? { name } : { name, line });
  }
  return entries;
}
