/**
 * The trail an earlier Dense summary carried, read back from its text: when a later compaction
 * covers that summary (a client kept Dense's answer to its compaction as a user message, and the
 * working budget compacts again), the files and commands it named, with their recall ids, stay
 * in the new trail instead of being lost with the message; so do the failures it lists under
 * `Tried and failed:`. Reads the lines `renderArtifactTrail` writes:
 * `- path: read, changed; last edit …; recall id r…`, `` - `command` → exit 1; recall id r… `` and,
 * in that section, `` - `command` → exit 2: first error; then `other` → ok ``; and a shell run's
 * line among the summary's turns (`[run_shell_command npm test — success, …; recall id r…]`),
 * which the summary's trail leaves out when the turns name it. Pure.
 */
import { isDenseText } from '../denseText.js';
import { isShellTool } from '../density/toolResultText.js';
import { readSummaryLine } from '../density/compress/toolResponseSummary.js';
import type { TriedCommand } from './triedAndFailed.js';

const FILE_STATES = ['created', 'changed', 'deleted', 'read'] as const;
type FileState = (typeof FILE_STATES)[number];

export interface CarriedFile {
  readonly path: string;
  readonly states: readonly FileState[];
  readonly lastEdit: string | undefined;
  readonly recallIds: readonly string[];
}

export interface CarriedCommand {
  readonly command: string;
  readonly status: string;
  readonly recallIds: readonly string[];
}

export interface CarriedTrail {
  readonly files: readonly CarriedFile[];
  readonly commands: readonly CarriedCommand[];
  /** What was tried and failed, oldest first. */
  readonly tried: readonly TriedCommand[];
}

const RECALL = /; recall id (r[0-9a-f]{10})/g;
const STATES = `(?:${FILE_STATES.join('|')})(?:, (?:${FILE_STATES.join('|')}))*`;
const FILE_LINE = new RegExp(
  `^- (\\S[^\\n]*?): (${STATES})(?:; last edit ([^\\n]*?))?((?:; recall id r[0-9a-f]{10})*)$`,
);
const COMMAND_LINE = /^- `([^`\n]+)`(?: → ([^;\n]*?))?((?:; recall id r[0-9a-f]{10})*)$/;
const TRIED_TITLE = /^Tried and failed:(?: \(\d+ older omitted\))?$/;
const TRIED_LINE = /^- `([^`\n]+)` → (.+?)(?:; then (`[^`\n]+` → [^\n]+))?$/;
/** A section's title line (`Files:`, `Commands (last exit status):`). */
const TITLE = /^[A-Z][^\n]*:(?: \(\d+ older omitted\))?$/;

const idsIn = (text: string): string[] => [...text.matchAll(RECALL)].map((match) => match[1] ?? '');

function triedOf(line: string): TriedCommand | undefined {
  const failure = TRIED_LINE.exec(line);
  if (failure === null) return undefined;
  const then = failure[3];
  return {
    command: failure[1] ?? '',
    failure: failure[2] ?? '',
    ...(then === undefined ? {} : { then }),
  };
}

function fileOf(line: string): CarriedFile | undefined {
  const file = FILE_LINE.exec(line);
  if (file === null) return undefined;
  return {
    path: file[1] ?? '',
    states: (file[2] ?? '').split(', ') as FileState[],
    lastEdit: file[3],
    recallIds: idsIn(file[4] ?? ''),
  };
}

function commandOf(line: string): CarriedCommand | undefined {
  const command = COMMAND_LINE.exec(line);
  if (command === null || (command[2] === undefined && command[3] === '')) return undefined;
  return {
    command: command[1] ?? '',
    status: command[2] ?? '',
    recallIds: idsIn(command[3] ?? ''),
  };
}

/** A shell run's turn line as the command it ran, its status and its recall id. */
function turnCommandOf(line: string): CarriedCommand | undefined {
  const turn = readSummaryLine(line);
  if (turn === undefined || !isShellTool(turn.toolName)) return undefined;
  return { command: turn.subject, status: turn.status, recallIds: [turn.recallId] };
}

/** The files, commands and failures an earlier Dense summary in `text` names; empty for other text. */
export function carriedTrail(text: string): CarriedTrail {
  if (!isDenseText(text)) return { files: [], commands: [], tried: [] };
  const files: CarriedFile[] = [];
  const commands: CarriedCommand[] = [];
  const tried: TriedCommand[] = [];
  let inTried = false;
  for (const line of text.split('\n')) {
    if (TITLE.test(line)) {
      inTried = TRIED_TITLE.test(line);
      continue;
    }
    const failure = inTried ? triedOf(line) : undefined;
    inTried = failure !== undefined;
    if (failure !== undefined) {
      tried.push(failure);
      continue;
    }
    const file = fileOf(line);
    if (file !== undefined) {
      files.push(file);
      continue;
    }
    const command = commandOf(line) ?? turnCommandOf(line);
    if (command !== undefined) commands.push(command);
  }
  return { files, commands, tried };
}
