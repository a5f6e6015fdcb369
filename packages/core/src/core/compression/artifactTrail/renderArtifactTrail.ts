/**
 * The artifact trail as the model sees it, within a character budget: files first
 * (never dropped while they fit), then commands newest first, error lines, the user's numbers
 * and the current todo list (from the todo store, never from a summary).
 */
import type { Todo } from '../../../tools/todo-schemas.js';
import { formatTodoList } from '../../../tools/todo/formatTodoList.js';
import type { Artifacts, FileArtifact } from './collectArtifacts.js';
import { isNamedIn } from './namedInHistory.js';

/** Files come first: at least this share of the budget when commands need the rest. */
const FILES_SHARE = 0.75;

export const TRAIL_HEADER =
  '[Artifact trail kept through compression; recall ids return exact content]';

function fileLine(filePath: string, file: FileArtifact): string {
  const states = [
    file.created ? 'created' : '',
    file.changed ? 'changed' : '',
    file.deleted ? 'deleted' : '',
    file.read ? 'read' : '',
  ].filter((s) => s !== '');
  const edit = file.lastEdit === undefined ? '' : `; last edit ${file.lastEdit}`;
  const recall = file.recallIds.map((id) => `; recall id ${id}`).join('');
  return `- ${filePath}: ${states.join(', ')}${edit}${recall}`;
}

/** Lines of `items` (newest kept) within `budget` characters. */
function fit(lines: readonly string[], budget: number): { kept: string[]; used: number } {
  const kept: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i] as string;
    if (used + line.length + 1 > budget) break;
    kept.unshift(line);
    used += line.length + 1;
  }
  return { kept, used };
}

/** The trail text; '' when nothing fits besides the header (the trail is then left out). */
export function renderArtifactTrail(
  artifacts: Artifacts,
  todos: readonly Todo[],
  budgetChars: number,
  /** The kept history's text: paths and commands it names (without a recall id) are left out. */
  visible = '',
): string {
  const sections: string[] = [TRAIL_HEADER];
  // The todo list goes in whole, whatever the budget: it is the plan the agent works from.
  if (todos.length > 0) sections.push(formatTodoList(todos));
  let left = budgetChars - sections.join('\n').length;
  const add = (title: string, lines: readonly string[]) => {
    if (lines.length === 0 || left <= title.length) return;
    const { kept, used } = fit(lines, left - title.length - 1);
    if (kept.length === 0) return;
    const omitted = lines.length - kept.length;
    sections.push(
      `${title}${omitted > 0 ? ` (${omitted} older omitted)` : ''}\n${kept.join('\n')}`,
    );
    left -= used + title.length + 1;
  };
  const shown = (key: string, hasRecallId: boolean) => !hasRecallId && isNamedIn(visible, key);
  const files = [...artifacts.files]
    .filter(([filePath, file]) => !shown(filePath, file.recallIds.length > 0))
    .map(([filePath, file]) => fileLine(filePath, file));
  const commands = [...artifacts.commands]
    .filter(([c, status]) => !shown(c, status.includes('recall id')))
    .map(([c, status]) => `- \`${c}\` → ${status}`);
  // Files and commands share the budget: neither may starve the other.
  const filesChars = files.reduce((n, line) => n + line.length + 1, 0);
  const commandsChars = commands.reduce((n, line) => n + line.length + 1, 0);
  const fileShare = Math.max(Math.floor(left * FILES_SHARE), left - commandsChars - 64);
  // 64: the section title and its "(n older omitted)" note.
  const reserved = Math.max(0, left - Math.min(fileShare, filesChars + 64));
  left -= reserved;
  add('Files:', files);
  left += reserved;
  add('Commands (last exit status):', commands);
  add(
    'Recent error lines:',
    artifacts.errors.map((line) => `- ${line}`),
  );
  add(
    'Numbers the user gave:',
    artifacts.numbers.size === 0 ? [] : [[...artifacts.numbers].join(', ')],
  );
  return sections.length === 1 ? '' : sections.join('\n');
}
