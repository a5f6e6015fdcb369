/**
 * Cuts an included file to the `@` limits at a line boundary and says so inside the inclusion, so
 * the model knows it saw only part and how to read the rest.
 */

export interface CappedText {
  readonly text: string;
  /** Lines of the original file. */
  readonly totalLines: number;
  /** Lines kept. */
  readonly keptLines: number;
  readonly truncated: boolean;
}

function countLines(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

/** Keeps whole lines within `maxLines` and `maxBytes` (UTF-8), appending a note when it cuts. */
export function capFileText(
  filePath: string,
  text: string,
  limits: { readonly maxLines: number; readonly maxBytes: number },
): CappedText {
  const totalLines = countLines(text);
  if (totalLines <= limits.maxLines && Buffer.byteLength(text, 'utf8') <= limits.maxBytes) {
    return { text, totalLines, keptLines: totalLines, truncated: false };
  }
  const lines = text.split('\n');
  let kept = 0;
  let bytes = 0;
  while (kept < lines.length && kept < limits.maxLines) {
    const size = Buffer.byteLength(lines[kept] as string, 'utf8') + 1;
    if (bytes + size > limits.maxBytes) break;
    bytes += size;
    kept++;
  }
  const body = lines.slice(0, kept).join('\n');
  const note =
    `[Truncated: lines 1-${kept} of ${totalLines} of ${filePath} are included. ` +
    `To read the rest, call read_file with file_path "${filePath}" and offset ${kept}.]`;
  return {
    text: kept === 0 ? note : `${body}\n${note}`,
    totalLines,
    keptLines: kept,
    truncated: true,
  };
}
