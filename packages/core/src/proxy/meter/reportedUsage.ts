/**
 * The usage the client is told, raised to a floor when the proxy wants the client to see its own
 * history as full (`budget/clientHistoryBound.ts`): the prompt a reply reports (input + cache
 * write + cache read) is brought up to the floor by adding the difference to the cached-prompt
 * count, where it costs the client's own cost display least (a cache read is priced at a tenth of
 * an input token). Anthropic Messages (`message_start`, `message_delta` and JSON replies), OpenAI
 * Responses (`response.completed`) and Chat Completions (the usage chunk) are raised; everything
 * else passes byte for byte. The proxy's own meter reads the upstream's bytes, never these.
 *
 * A stream is rewritten line by line: every provider writes each event's JSON on one `data:`
 * line, so only a complete `data:` line holding `"usage"` is parsed and written again; a line that
 * does not parse is passed as it came.
 */

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** Given the prompt the upstream reported, the prompt the client is to be told (undefined: as is). */
export type PromptFloor = (reportedPrompt: number) => number | undefined;

function add(target: Json, key: string, extra: number): void {
  target[key] = (num(target[key]) ?? 0) + extra;
}

/** Raises one `usage` object in place; true when it changed. */
function raiseUsage(usage: Json, floor: PromptFloor): boolean {
  const openAiDetails = isObject(usage.prompt_tokens_details)
    ? usage.prompt_tokens_details
    : isObject(usage.input_tokens_details)
      ? usage.input_tokens_details
      : undefined;
  const openAi = usage.prompt_tokens !== undefined || usage.total_tokens !== undefined;
  if (openAi) {
    const key = usage.prompt_tokens !== undefined ? 'prompt_tokens' : 'input_tokens';
    const prompt = num(usage[key]);
    if (prompt === undefined) return false;
    const target = floor(prompt);
    if (target === undefined || target <= prompt) return false;
    const extra = target - prompt;
    add(usage, key, extra);
    if (usage.total_tokens !== undefined) add(usage, 'total_tokens', extra);
    if (openAiDetails !== undefined) add(openAiDetails, 'cached_tokens', extra);
    else
      usage[key === 'prompt_tokens' ? 'prompt_tokens_details' : 'input_tokens_details'] = {
        cached_tokens: extra,
      };
    return true;
  }
  const parts = ['input_tokens', 'cache_creation_input_tokens', 'cache_read_input_tokens'];
  // A `message_delta` with output tokens only leaves the client's prompt count as it was.
  if (!parts.some((part) => num(usage[part]) !== undefined)) return false;
  const prompt = parts.reduce((sum, part) => sum + (num(usage[part]) ?? 0), 0);
  const target = floor(prompt);
  if (target === undefined || target <= prompt) return false;
  add(usage, 'cache_read_input_tokens', target - prompt);
  return true;
}

function usagesOf(value: Json): Json[] {
  const found: Json[] = [];
  if (isObject(value.usage)) found.push(value.usage);
  if (isObject(value.message) && isObject(value.message.usage)) found.push(value.message.usage);
  if (isObject(value.response) && isObject(value.response.usage)) found.push(value.response.usage);
  return found;
}

/** One reply body or event's JSON text raised; undefined when it is left as it is. */
export function raisedUsageJson(text: string, floor: PromptFloor): string | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  let changed = false;
  for (const usage of usagesOf(value)) changed = raiseUsage(usage, floor) || changed;
  return changed ? JSON.stringify(value) : undefined;
}

const LF = 0x0a;
const CR = 0x0d;
const DATA = Buffer.from('data:');
const USAGE = Buffer.from('"usage"');

/**
 * Raises the usage in an event stream as it passes: `push` returns the bytes to send now (every
 * complete line; an unfinished line waits for its end), `end` the rest.
 */
export class ReportedUsageStream {
  private pending: Buffer = Buffer.alloc(0);
  /** Whether some usage was raised. */
  raised = false;

  constructor(private readonly floor: PromptFloor) {}

  push(chunk: Buffer): Buffer {
    const bytes = this.pending.length === 0 ? chunk : Buffer.concat([this.pending, chunk]);
    let lastEnd = -1;
    for (let at = bytes.length - 1; at >= 0; at -= 1) {
      const byte = bytes[at];
      if (byte === LF || byte === CR) {
        lastEnd = at;
        break;
      }
    }
    this.pending = bytes.subarray(lastEnd + 1);
    return lastEnd < 0 ? Buffer.alloc(0) : this.rewrite(bytes.subarray(0, lastEnd + 1));
  }

  end(): Buffer {
    const rest = this.pending;
    this.pending = Buffer.alloc(0);
    return rest.length === 0 ? rest : this.rewrite(rest);
  }

  /** Whole lines (each with its terminator) with raised `data:` lines. */
  private rewrite(lines: Buffer): Buffer {
    if (lines.indexOf(USAGE) < 0) return lines;
    const out: Buffer[] = [];
    let start = 0;
    while (start < lines.length) {
      let end = start;
      while (end < lines.length && lines[end] !== LF && lines[end] !== CR) end += 1;
      let next = end;
      if (lines[next] === CR && lines[next + 1] === LF) next += 2;
      else if (next < lines.length) next += 1;
      out.push(this.line(lines.subarray(start, end)), lines.subarray(end, next));
      start = next;
    }
    return Buffer.concat(out);
  }

  private line(line: Buffer): Buffer {
    if (!line.subarray(0, DATA.length).equals(DATA) || line.indexOf(USAGE) < 0) return line;
    const text = line.subarray(DATA.length).toString('utf8');
    const space = text.startsWith(' ') ? ' ' : '';
    const raised = raisedUsageJson(text.slice(space.length), this.floor);
    if (raised === undefined) return line;
    this.raised = true;
    return Buffer.from(`data:${space}${raised}`, 'utf8');
  }
}
