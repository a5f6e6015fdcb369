/**
 * The search loop behind `grep`: reads candidate files a batch at a time (the reads of a batch run
 * concurrently), scans them in walk order, and collects `path:line: text` entries within the caps.
 */
import type { ToolContext } from '../Tool.js';
import { TOOL_LIMITS } from '../toolLimits.js';
import { isBinaryContent } from '../workspace/isBinaryContent.js';
import type { WalkedFile } from '../workspace/walkWorkspace.js';

/** Files read concurrently; enough to hide file-system latency without many open descriptors. */
const READ_BATCH = 32;

export interface GrepState {
  readonly regex: RegExp;
  readonly lines: string[];
  bytes: number;
  matches: number;
  skippedBinary: number;
  skippedLarge: number;
}

export function newGrepState(regex: RegExp): GrepState {
  return { regex, lines: [], bytes: 0, matches: 0, skippedBinary: 0, skippedLarge: 0 };
}

type Loaded =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'binary' | 'large' | 'unreadable' };

async function load(context: ToolContext, file: WalkedFile): Promise<Loaded> {
  try {
    if ((await context.fs.stat(file.realPath)).size > TOOL_LIMITS.grepMaxFileBytes)
      return { kind: 'large' };
    const bytes = await context.fs.readFile(file.realPath);
    if (isBinaryContent(bytes)) return { kind: 'binary' };
    return { kind: 'text', text: Buffer.from(bytes).toString('utf8') };
  } catch {
    // A file that vanished or cannot be read is simply not searched.
    return { kind: 'unreadable' };
  }
}

function shorten(line: string): string {
  const max = TOOL_LIMITS.grepMaxLineChars;
  return line.length > max ? `${line.slice(0, max)}… [line cut at ${max} characters]` : line;
}

/** Adds one file's matches; false once a cap is hit and another match was still found. */
function scan(state: GrepState, file: WalkedFile, text: string): boolean {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, '');
    if (!state.regex.test(line)) continue;
    if (state.matches >= TOOL_LIMITS.grepMaxMatches) return false;
    const entry = `${file.relativePath}:${i + 1}: ${shorten(line)}`;
    const cost = Buffer.byteLength(entry, 'utf8') + 1;
    if (state.bytes + cost > TOOL_LIMITS.grepMaxOutputBytes) return false;
    state.lines.push(entry);
    state.bytes += cost;
    state.matches++;
  }
  return true;
}

/** Searches `files` in order: 'complete', 'stopped' (a cap was hit) or 'aborted'. */
export async function grepFiles(
  context: ToolContext,
  state: GrepState,
  files: readonly WalkedFile[],
): Promise<'complete' | 'stopped' | 'aborted'> {
  for (let at = 0; at < files.length; at += READ_BATCH) {
    if (context.signal?.aborted === true) return 'aborted';
    const batch = files.slice(at, at + READ_BATCH);
    const loaded = await Promise.all(batch.map((file) => load(context, file)));
    for (let i = 0; i < batch.length; i++) {
      const result = loaded[i] as Loaded;
      if (result.kind === 'binary') state.skippedBinary++;
      else if (result.kind === 'large') state.skippedLarge++;
      else if (result.kind === 'text' && !scan(state, batch[i] as WalkedFile, result.text)) {
        return 'stopped';
      }
    }
  }
  return 'complete';
}
