/**
 * The deterministic stand-in for an LLM summary in the offline demo: reads the plain-text history
 * the summarizing strategies send (`[User]` sections, `→ Tool call …` and `← …` lines) and writes a
 * `<state_snapshot>` with every section of the compression prompt, built only from what it saw.
 */

const USER_SECTION = /^\[User\]\n([^\n]*)/gm;
const PREVIOUS_SUMMARY =
  /^\[User \(summary of earlier conversation\)\]\n([\s\S]*?<\/state_snapshot>)/m;
const TOOL_CALL = /^→ Tool call (\S+) \(id ([^)]+)\) with parameters: (.*)$/gm;
const TOOL_FAILED = /^← (\S+) \(id ([^)]+)\) failed: ([^\n]*)/gm;
const MAX_LINE = 140;
const RECENT_ACTIONS = 6;

interface SeenCall {
  readonly name: string;
  readonly id: string;
  readonly target: string;
}

function clip(text: string): string {
  const line = text.trim();
  return line.length <= MAX_LINE ? line : `${line.slice(0, MAX_LINE - 1)}…`;
}

function parseParameters(json: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The file a call touched, or the command it ran, as one short string. */
function callTarget(parameters: Record<string, unknown>): string {
  for (const key of ['file_path', 'path', 'command', 'pattern']) {
    const value = parameters[key];
    if (typeof value === 'string') return value;
  }
  return '';
}

function sectionOf(snapshot: string, tag: string): string[] {
  const match = new RegExp(`<${tag}>\\n?([\\s\\S]*?)</${tag}>`).exec(snapshot);
  const body = match?.[1]?.trim() ?? '';
  return body === '' || body === 'None.' ? [] : body.split('\n');
}

function describeFiles(calls: readonly SeenCall[], earlier: readonly string[]): string[] {
  const state = new Map<string, string>();
  for (const line of earlier) {
    const match = /^- (\S+): (.*)$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) state.set(match[1], match[2]);
  }
  for (const call of calls) {
    if (call.name === 'read_file' && !state.has(call.target)) state.set(call.target, 'read');
    if (call.name === 'replace') state.set(call.target, 'modified (replace)');
    if (call.name === 'write_file') state.set(call.target, 'written (write_file)');
  }
  return [...state].map(([file, what]) => `- ${file}: ${what}`);
}

function bullets(lines: readonly string[]): string {
  return lines.length === 0 ? 'None.' : lines.join('\n');
}

/** A `<state_snapshot>` of the summarize request's text (the wrapped, sanitized history). */
export function buildOfflineSnapshot(requestText: string): string {
  const previous = PREVIOUS_SUMMARY.exec(requestText)?.[1] ?? '';
  const withoutPrevious = previous === '' ? requestText : requestText.replace(previous, '');
  const requests = [...withoutPrevious.matchAll(USER_SECTION)].map((m) => clip(m[1] ?? ''));
  const calls: SeenCall[] = [...withoutPrevious.matchAll(TOOL_CALL)].map((m) => ({
    name: m[1] ?? '',
    id: m[2] ?? '',
    target: clip(callTarget(parseParameters(m[3] ?? ''))),
  }));
  const failed = new Set([...withoutPrevious.matchAll(TOOL_FAILED)].map((m) => m[2] ?? ''));
  const errors = [...withoutPrevious.matchAll(TOOL_FAILED)].map(
    (m) => `- ${m[1] ?? ''} failed: ${clip(m[3] ?? '')}`,
  );
  const commands = [
    ...new Set(calls.filter((c) => c.name === 'run_shell_command').map((c) => c.target)),
  ];
  const goal = sectionOf(previous, 'overall_goal')[0] ?? requests[0] ?? 'None.';
  const plan = [
    ...sectionOf(previous, 'current_plan').map((line) => line.replace('[IN PROGRESS]', '[DONE]')),
    ...requests.map((r, i) => `- ${i === requests.length - 1 ? '[IN PROGRESS]' : '[DONE]'} ${r}`),
  ];
  const recent = calls
    .slice(-RECENT_ACTIONS)
    .map((c) => `- ${c.name} ${c.target}${failed.has(c.id) ? ' (failed)' : ''}`);
  const sections: [string, string][] = [
    ['overall_goal', goal],
    [
      'key_knowledge',
      bullets([...sectionOf(previous, 'key_knowledge'), ...commands.map((c) => `- Ran \`${c}\``)]),
    ],
    ['file_system_state', bullets(describeFiles(calls, sectionOf(previous, 'file_system_state')))],
    ['recent_actions', bullets(recent)],
    ['current_plan', bullets(plan)],
    ['task_context', 'None.'],
    ['user_directives', bullets(requests.slice(-3).map((r) => `- "${r}"`))],
    ['errors_encountered', bullets([...sectionOf(previous, 'errors_encountered'), ...errors])],
    ['code_references', 'None.'],
  ];
  const body = sections.map(([tag, text]) => `<${tag}>\n${text}\n</${tag}>`).join('\n\n');
  return `<state_snapshot>\n${body}\n</state_snapshot>`;
}
