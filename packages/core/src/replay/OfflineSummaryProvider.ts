/**
 * The deterministic, offline stand-in for the summarizing model of the LLM strategies in a
 * replay: it reads the summary request (the history rendered as text) and writes a
 * `<state_snapshot>` from the first line of each user message and each tool call's name and
 * target. Never touches the network; every replay output that may use it says so.
 */
import { textBlock } from '../services/history/IContent.js';
import type { GenerateRequest, IProvider, ProviderChunk } from '../providers/IProvider.js';

/** How replay outputs label summaries written by this provider. */
export const OFFLINE_SUMMARIZER_LABEL =
  'offline summarizer (deterministic, no LLM: first line of each user message, each tool call)';

/** Lines kept per list in a summary (the newest ones). */
export const OFFLINE_SUMMARY_MAX_LINES = 120;
const LINE_CHARS = 200;

const CALL_LINE = /^→ Tool call (\S+) \(id [^)]*\) with parameters: (.*)$/;
const TARGET_KEYS = ['file_path', 'absolute_path', 'path', 'command', 'pattern', 'query'];

function clip(text: string): string {
  const line = text.trim();
  return line.length <= LINE_CHARS ? line : `${line.slice(0, LINE_CHARS - 1)}…`;
}

/** The first target-like parameter of a rendered call (its JSON may be elided; then a regex). */
function callTarget(json: string): string {
  try {
    const parsed: unknown = JSON.parse(json);
    if (typeof parsed === 'object' && parsed !== null) {
      const record = parsed as Readonly<Record<string, unknown>>;
      for (const key of TARGET_KEYS) {
        const value = record[key];
        if (typeof value === 'string' && value !== '') return value.split('\n')[0] ?? '';
      }
    }
  } catch {
    // An elided parameter list is not JSON; look for the first target key instead.
  }
  const match = /"(?:file_path|absolute_path|path|command)":"((?:[^"\\]|\\.)*)"/.exec(json);
  return match?.[1]?.replace(/\\n.*/, '') ?? '';
}

/**
 * The snapshot for a history rendered by `sanitizeHistoryForCompression`: `[User]` sections give
 * their first non-empty line, `→ Tool call` lines their tool and target. Pure.
 */
export function offlineSummary(rendered: string): string {
  const asks: string[] = [];
  const actions: string[] = [];
  let inUser = false;
  for (const line of rendered.split('\n')) {
    if (/^\[(User|Assistant|Tool)[^\]]*\]$/.test(line)) {
      inUser = line.startsWith('[User');
      continue;
    }
    const call = CALL_LINE.exec(line);
    if (call) {
      actions.push(clip(`${call[1] ?? ''} ${callTarget(call[2] ?? '')}`));
    } else if (inUser && line.trim() !== '') {
      asks.push(clip(line));
      inUser = false;
    }
  }
  const list = (lines: readonly string[]) =>
    lines.length === 0
      ? 'None.'
      : lines
          .slice(-OFFLINE_SUMMARY_MAX_LINES)
          .map((line) => `- ${line}`)
          .join('\n');
  const none = (tag: string) => `<${tag}>None.</${tag}>`;
  return [
    '<state_snapshot>',
    `<overall_goal>${asks[0] ?? 'None.'}</overall_goal>`,
    none('task_context'),
    `<user_directives>\n${list(asks)}\n</user_directives>`,
    none('key_knowledge'),
    none('errors_encountered'),
    none('file_system_state'),
    none('code_references'),
    `<recent_actions>\n${list(actions)}\n</recent_actions>`,
    none('current_plan'),
    '</state_snapshot>',
  ].join('\n');
}

function requestText(request: GenerateRequest): string {
  return request.contents
    .filter((entry) => entry.speaker === 'human')
    .flatMap((entry) => entry.blocks.map((block) => (block.type === 'text' ? block.text : '')))
    .join('\n');
}

export class OfflineSummaryProvider implements IProvider {
  readonly name = 'offline-summarizer';
  readonly model = 'first-lines-v1';
  private calls = 0;

  /** Summaries written so far. */
  get summaries(): number {
    return this.calls;
  }

  // eslint-disable-next-line @typescript-eslint/require-await -- the IProvider contract is async
  async *generate(request: GenerateRequest): AsyncIterable<ProviderChunk> {
    this.calls++;
    yield { content: { speaker: 'ai', blocks: [textBlock(offlineSummary(requestText(request)))] } };
  }
}
