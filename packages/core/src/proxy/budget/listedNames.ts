/**
 * The names the directory listings of a compaction's removed turns showed (`ls`, `find`, `tree`,
 * `fd`, `git ls-files`, `rg --files`, a glob or a directory-listing tool): the project's map. The
 * agent comes back to it long after it listed it (a recap of every module, a file it saw and never
 * opened), and a turn's one-line summary carries a command, not what it listed. Newest listing
 * first, each name once, within the room given; names the rest of the summary already shows are
 * left out. Pure.
 */
import type { IContent, ToolCallBlock } from '../../services/history/IContent.js';
import { stringParameter } from '../../core/compression/density/toolParameters.js';
import { outputLines } from '../../core/compression/density/shellOutputLines.js';
import { originalResponseText } from '../../core/compression/recallPointers.js';
import { withoutClientContext } from '../../services/history/clientContext.js';

export const LISTED_HEADING = 'Names the directory listings of these turns showed, newest first:';

/** Characters one listing's names may take (a `find` of a whole tree stays one line of many). */
export const LISTING_CHARS = 800;
const COMMAND_CHARS = 60;
/** Names of one listing looked at, at most (the rest are counted). */
export const LISTING_NAMES_EXAMINED = 1_000;

const LISTING_TOOLS: ReadonlySet<string> = new Set(['glob', 'list_directory']);
/** A shell command that lists (after any leading `cd …&&`). */
const LISTING_COMMAND =
  /^(?:cd\s+\S+\s*&&\s*)*(?:ls|find|tree|fd|git\s+ls-files|rg\s+--files)(?:\s|$)/;
/** A long listing's line (`ls -l`): the name is its last field. */
const LONG_FORMAT = /^[-dlcbps][rwxsStT-]{9}[.@+]?\s/;
/** A tree's drawing before a name. */
const TREE_DRAWING = /^[\s│├└─|`-]+/u;
/** One name or path: no spaces, a letter in it; a trailing `/` (a directory) or `:` (`ls -R`). */
const NAME = /^[\w@.+~-][\w@.+,~/-]*[/:]?$/;
const MAX_NAME = 160;

/** What the call lists: its command or pattern (the line's label); undefined when it lists none. */
function listingLabel(call: ToolCallBlock): string | undefined {
  if (LISTING_TOOLS.has(call.name)) {
    return (
      stringParameter(call.parameters, 'pattern') ??
      stringParameter(call.parameters, 'path') ??
      stringParameter(call.parameters, 'dir_path') ??
      call.name
    );
  }
  const command = stringParameter(call.parameters, 'command')?.trim();
  return command !== undefined && LISTING_COMMAND.test(command) ? command : undefined;
}

/** The name a listing's line shows; undefined for a heading, a total, code a command printed. */
export function nameOfLine(line: string): string | undefined {
  let text = line.trim();
  if (LONG_FORMAT.test(text)) {
    const fields = text.split(/\s+/);
    const arrow = fields.indexOf('->');
    text = (arrow > 0 ? fields[arrow - 1] : fields.at(-1)) ?? '';
  } else {
    text = text.replace(TREE_DRAWING, '');
  }
  if (text.length === 0 || text.length > MAX_NAME || !/[A-Za-z]/.test(text)) return undefined;
  return NAME.test(text) ? text.replace(/:$/, '') : undefined;
}

interface Listing {
  readonly label: string;
  readonly names: readonly string[];
}

/** The removed turns' listings, newest first, each with the names its output showed. */
function listingsOf(
  removed: readonly IContent[],
  calls: ReadonlyMap<string, ToolCallBlock>,
): Listing[] {
  const found: Listing[] = [];
  for (const entry of removed) {
    for (const block of entry.blocks) {
      if (block.type !== 'tool_response') continue;
      const call = calls.get(block.callId);
      const label = call === undefined ? undefined : listingLabel(call);
      if (label === undefined) continue;
      const text = withoutClientContext(originalResponseText(block));
      const names = outputLines(text).flatMap((line) => nameOfLine(line) ?? []);
      if (names.length > 0) found.push({ label, names });
    }
  }
  return found.reverse();
}

const clipped = (text: string, chars: number): string =>
  text.length <= chars ? text : `${text.slice(0, chars - 1)}…`;

/** Room for the tail of a line some of whose names did not fit, e.g. ` (+1200 more)`. */
const MORE_CHARS = 14;

/**
 * One listing's line: its label and, in the listing's order, the names not yet shown until the
 * next one does not fit `chars` (at most `LISTING_CHARS`); the names from there on are counted,
 * not looked at (a `find` of a whole tree costs no more than a short listing). Undefined when no
 * name is left to show or none fits.
 */
function listingLine(
  listing: Listing,
  chars: number,
  shown: Set<string>,
  isShown: (name: string) => boolean,
): string | undefined {
  const head = `- \`${clipped(listing.label.replace(/\s+/g, ' '), COMMAND_CHARS)}\`:`;
  const room = Math.min(chars, LISTING_CHARS) - MORE_CHARS;
  let line = head;
  let index = 0;
  const examined = Math.min(listing.names.length, LISTING_NAMES_EXAMINED);
  for (; index < examined; index++) {
    const name = listing.names[index] as string;
    if (shown.has(name) || isShown(name)) continue;
    if (line.length + name.length + 1 > room) break;
    shown.add(name);
    line += ` ${name}`;
  }
  if (line === head) return undefined;
  const left = listing.names.length - index;
  return left === 0 ? line : `${line} (+${left} more)`;
}

/**
 * The section naming what the removed turns' listings showed, newest listing first, within
 * `chars` ('' when there is none or no room); `calls`: the removed tool calls by id (the
 * summary's own map); `isShown` tells a name the summary already shows.
 */
export function listedNames(
  removed: readonly IContent[],
  calls: ReadonlyMap<string, ToolCallBlock>,
  chars: number,
  isShown: (name: string) => boolean,
): string {
  const shown = new Set<string>();
  const lines: string[] = [];
  let used = LISTED_HEADING.length;
  for (const listing of listingsOf(removed, calls)) {
    const line = listingLine(listing, chars - used - 1, shown, isShown);
    if (line === undefined) continue;
    lines.push(line);
    used += line.length + 1;
  }
  return lines.length === 0 ? '' : [LISTED_HEADING, ...lines].join('\n');
}
