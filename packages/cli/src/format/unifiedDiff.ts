/**
 * A small line diff for approval previews: common prefix and suffix are trimmed, the middle is
 * aligned by longest common subsequence (or, past a size bound, shown as removed then added), and
 * the result is cut into unified-diff hunks with `context` lines around each change. Pure.
 */

export type DiffLineKind = 'context' | 'add' | 'remove' | 'hunk';

export interface DiffLine {
  readonly kind: DiffLineKind;
  readonly text: string;
}

interface Op {
  readonly kind: 'context' | 'add' | 'remove';
  readonly text: string;
  readonly oldLine: number;
  readonly newLine: number;
}

/** Above this many cells the LCS table is skipped (the middle becomes a plain replace). */
const MAX_LCS_CELLS = 4_000_000;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

/** `table[i * (b.length + 1) + j]` = LCS length of `a[i..]` and `b[j..]`. */
function lcsTable(a: readonly string[], b: readonly string[]): Uint32Array {
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      table[i * width + j] =
        a[i] === b[j]
          ? (table[(i + 1) * width + j + 1] ?? 0) + 1
          : Math.max(table[(i + 1) * width + j] ?? 0, table[i * width + j + 1] ?? 0);
    }
  }
  return table;
}

function lcsOps(a: readonly string[], b: readonly string[]): ('=' | '-' | '+')[] {
  if (a.length * b.length > MAX_LCS_CELLS) {
    return [...a.map(() => '-' as const), ...b.map(() => '+' as const)];
  }
  const width = b.length + 1;
  const table = lcsTable(a, b);
  const ops: ('=' | '-' | '+')[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      ops.push('=');
      i++;
      j++;
    } else if (
      j >= b.length ||
      (i < a.length && (table[(i + 1) * width + j] ?? 0) >= (table[i * width + j + 1] ?? 0))
    ) {
      ops.push('-');
      i++;
    } else {
      ops.push('+');
      j++;
    }
  }
  return ops;
}

function diffOps(before: readonly string[], after: readonly string[]): Op[] {
  let start = 0;
  while (start < before.length && start < after.length && before[start] === after[start]) start++;
  let end = 0;
  while (
    end < before.length - start &&
    end < after.length - start &&
    before[before.length - 1 - end] === after[after.length - 1 - end]
  )
    end++;
  const middle = lcsOps(
    before.slice(start, before.length - end),
    after.slice(start, after.length - end),
  );
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  const push = (kind: Op['kind']): void => {
    const text = kind === 'add' ? after[j] : before[i];
    ops.push({ kind, text: text ?? '', oldLine: i + 1, newLine: j + 1 });
    if (kind !== 'add') i++;
    if (kind !== 'remove') j++;
  };
  for (let k = 0; k < start; k++) push('context');
  for (const op of middle) push(op === '=' ? 'context' : op === '-' ? 'remove' : 'add');
  for (let k = 0; k < end; k++) push('context');
  return ops;
}

/** Index ranges of ops to show: each change with `context` lines around it, overlapping merged. */
function hunkRanges(ops: readonly Op[], context: number): [number, number][] {
  const ranges: [number, number][] = [];
  ops.forEach((op, index) => {
    if (op.kind === 'context') return;
    const from = Math.max(0, index - context);
    const to = Math.min(ops.length, index + context + 1);
    const last = ranges.at(-1);
    if (last !== undefined && from <= last[1]) last[1] = Math.max(last[1], to);
    else ranges.push([from, to]);
  });
  return ranges;
}

/** The unified diff of `before` → `after` as lines (`@@ -a,b +c,d @@`, ` `, `-`, `+`). */
export function unifiedDiff(before: string, after: string, context = 2): DiffLine[] {
  const ops = diffOps(splitLines(before), splitLines(after));
  const out: DiffLine[] = [];
  for (const [from, to] of hunkRanges(ops, context)) {
    const slice = ops.slice(from, to);
    const first = slice[0] as Op;
    const oldCount = slice.filter((op) => op.kind !== 'add').length;
    const newCount = slice.filter((op) => op.kind !== 'remove').length;
    out.push({
      kind: 'hunk',
      text: `@@ -${first.oldLine},${oldCount} +${first.newLine},${newCount} @@`,
    });
    for (const op of slice) {
      const sign = op.kind === 'add' ? '+' : op.kind === 'remove' ? '-' : ' ';
      out.push({ kind: op.kind, text: `${sign}${op.text}` });
    }
  }
  return out;
}
