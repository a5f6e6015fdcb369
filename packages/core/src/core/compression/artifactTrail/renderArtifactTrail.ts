/**
 * The artifact trail as the model sees it, within a character budget: the current todo list
 * (from the todo store, never from a summary; whole) and what was tried and failed first (its
 * newest line whatever the budget), then files
 * (never dropped while they fit), commands newest first, the other tools' outputs, error lines
 * and the user's numbers. A line names the recall ids of the outputs the kept history no longer shows, so
 * every output a compression drops stays recallable while its line fits.
 */
import type { Todo } from '../../../tools/todo-schemas.js';
import { formatTodoList } from '../../../tools/todo/formatTodoList.js';
import { recallSuffix } from '../recallPointers.js';
import { triedLines } from './triedAndFailed.js';
import { TRAIL_HEADER } from '../denseText.js';
import type { Artifacts, FileArtifact, OutputArtifact } from './collectArtifacts.js';
import { EMPTY_VIEW, isNamedIn, type HistoryView } from './namedInHistory.js';

/** Files come first: at least this share of the budget when commands need the rest. */
const TRIED_TITLE = 'Tried and failed:';
const FILES_SHARE = 0.75;

export { TRAIL_HEADER };

const NONE: ReadonlySet<string> = new Set();

function fileLine(filePath: string, file: FileArtifact, recall: string): string {
  const states = [
    file.created ? 'created' : '',
    file.changed ? 'changed' : '',
    file.deleted ? 'deleted' : '',
    file.read ? 'read' : '',
  ].filter((s) => s !== '');
  const edit = file.lastEdit === undefined ? '' : `; last edit ${file.lastEdit}`;
  return `- ${filePath}: ${states.join(', ')}${edit}${recall}`;
}

/** `- \`key\` → status; recall id …` (no arrow part when neither is known). */
function outputLine(key: string, output: OutputArtifact, recall: string): string {
  const status = output.status === '' ? recall.replace(/^; /, '') : `${output.status}${recall}`;
  return status === '' ? `- \`${key}\`` : `- \`${key}\` → ${status}`;
}

/** One line of a section, and the recall ids it names (what is left of it when it is omitted). */
interface TrailLine {
  readonly text: string;
  readonly ids: readonly string[];
}

const plainLine = (text: string): TrailLine => ({ text, ids: [] });

/**
 * The lines of `artifacts` with the recall ids the view lacks; an artifact without such an id
 * that the view already names is left out.
 */
function linesOf<T>(
  artifacts: ReadonlyMap<string, T>,
  view: HistoryView,
  idsOf: (artifact: T) => readonly string[],
  line: (key: string, artifact: T, recall: string) => string,
): TrailLine[] {
  const lines: TrailLine[] = [];
  for (const [key, artifact] of artifacts) {
    const ids = idsOf(artifact).filter((id) => !view.recallIds.has(id));
    if (ids.length === 0 && isNamedIn(view.text, key)) continue;
    lines.push({ text: line(key, artifact, ids.map(recallSuffix).join('')), ids });
  }
  return lines;
}

const OLDER_PREFIX = '- older outputs: ';
/** `recall id r0123456789; ` */
const OLDER_ID_CHARS = 'recall id '.length + 11 + 2;
const olderChars = (ids: number): number =>
  ids === 0 ? 0 : OLDER_PREFIX.length + ids * OLDER_ID_CHARS + 1;

interface Fitted {
  readonly kept: readonly string[];
  readonly omitted: number;
  readonly used: number;
}

/**
 * The newest lines of `lines` within `budget` characters. The recall ids of the lines left out
 * stay, in one `- older outputs:` line first (the newest ids when not all fit): an id costs a
 * fraction of a line, and it is all that gets a dropped output back.
 */
function fit(lines: readonly TrailLine[], budget: number): Fitted {
  let olderIds = lines.reduce((n, line) => n + line.ids.length, 0);
  let used = 0;
  let first = lines.length;
  while (first > 0) {
    const line = lines[first - 1] as TrailLine;
    const withLine = used + line.text.length + 1 + olderChars(olderIds - line.ids.length);
    if (withLine > budget) break;
    used += line.text.length + 1;
    olderIds -= line.ids.length;
    first--;
  }
  const kept = lines.slice(first).map((line) => line.text);
  const older = lines.slice(0, first).flatMap((line) => line.ids);
  const room = Math.floor((budget - used - OLDER_PREFIX.length - 1) / OLDER_ID_CHARS);
  const ids = room <= 0 ? [] : older.slice(-room);
  if (ids.length === 0) return { kept, omitted: first, used };
  const olderLine = `${OLDER_PREFIX}${ids.map((id) => `recall id ${id}`).join('; ')}`;
  return { kept: [olderLine, ...kept], omitted: first, used: used + olderLine.length + 1 };
}

/** The trail text; '' when nothing fits besides the header (the trail is then left out). */
export function renderArtifactTrail(
  artifacts: Artifacts,
  todos: readonly Todo[],
  budgetChars: number,
  /** What the kept history shows: what it names without a recall id needed is left out. */
  view: HistoryView = EMPTY_VIEW,
): string {
  const sections: string[] = [TRAIL_HEADER];
  // The todo list goes in whole, whatever the budget: it is the plan the agent works from.
  if (todos.length > 0) sections.push(formatTodoList(todos));
  let left = budgetChars - sections.join('\n').length;
  /**
   * `floor`: characters the section may take whatever is left; what it takes past the budget is
   * the trail's overrun, not taken from the sections after it.
   */
  const add = (title: string, lines: readonly TrailLine[], floor = 0) => {
    const room = Math.max(left, floor);
    if (lines.length === 0 || room <= title.length) return;
    const { kept, omitted, used } = fit(lines, room - title.length - 1);
    if (kept.length === 0) return;
    sections.push(
      `${title}${omitted > 0 ? ` (${omitted} older omitted)` : ''}\n${kept.join('\n')}`,
    );
    left = room > left ? left : left - (used + title.length + 1);
  };
  // What failed comes before what was touched: it is what the agent must not try again blindly,
  // so its newest line goes in whatever the budget, as the todo list does.
  const tried = triedLines(artifacts.tried).map(plainLine);
  add(TRIED_TITLE, tried, TRIED_TITLE.length + 1 + (tried.at(-1)?.text.length ?? 0) + 1);
  // A file line names every read it keeps (at most a few), shown in the kept history or not.
  const files = linesOf(
    artifacts.files,
    { ...view, recallIds: NONE },
    (f) => f.recallIds,
    fileLine,
  );
  const commands = linesOf(artifacts.commands, view, (c) => c.recallIds, outputLine);
  const results = linesOf(artifacts.results, view, (r) => r.recallIds, outputLine);
  // Files and commands share the budget: neither may starve the other.
  const filesChars = files.reduce((n, line) => n + line.text.length + 1, 0);
  const commandsChars = commands.reduce((n, line) => n + line.text.length + 1, 0);
  const fileShare = Math.max(Math.floor(left * FILES_SHARE), left - commandsChars - 64);
  // 64: the section title and its "(n older omitted)" note.
  const reserved = Math.max(0, left - Math.min(fileShare, filesChars + 64));
  left -= reserved;
  add('Files:', files);
  left += reserved;
  add('Commands (last exit status):', commands);
  add('Other tool outputs:', results);
  add(
    'Recent error lines:',
    artifacts.errors.map((line) => plainLine(`- ${line}`)),
  );
  add(
    'Numbers the user gave:',
    artifacts.numbers.size === 0 ? [] : [plainLine([...artifacts.numbers].join(', '))],
  );
  return sections.length === 1 ? '' : sections.join('\n');
}
