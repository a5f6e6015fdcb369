/**
 * Reads billed usage from an upstream reply while it streams past (it never holds the stream up):
 * Anthropic `message_start` / `message_delta` usage and non-streaming `usage`; OpenAI Chat and
 * Responses usage including cached tokens. Normalized so input + cache read + cache creation is
 * the whole prompt. A stream's events are found by `SseEventScanner` (every SSE framing, each byte
 * searched once).
 */
import { SseEventScanner } from './sseEventScanner.js';

export interface Usage {
  /** Prompt tokens billed at the base price. */
  readonly input: number;
  readonly cacheCreation: number;
  readonly cacheRead: number;
  readonly output: number;
}

export const ZERO_USAGE: Usage = { input: 0, cacheCreation: 0, cacheRead: 0, output: 0 };

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

type MutableUsage = { -readonly [K in keyof Usage]?: number };

/** Uncached and cached prompt tokens (OpenAI counts cached tokens inside the prompt). */
function promptTokens(usage: Json, out: MutableUsage): void {
  const details = isObject(usage.prompt_tokens_details)
    ? usage.prompt_tokens_details
    : isObject(usage.input_tokens_details)
      ? usage.input_tokens_details
      : undefined;
  const cached = num(details?.cached_tokens);
  const prompt = num(usage.prompt_tokens) ?? num(usage.input_tokens);
  if (prompt === undefined) return;
  // Anthropic reports cache reads apart from input_tokens (and has no *_details object).
  out.input = details !== undefined ? prompt - (cached ?? 0) : prompt;
  if (cached !== undefined) out.cacheRead = cached;
}

/** Usage from one `usage` object of any of the three APIs; undefined when it is none. */
export function normalizeUsage(usage: unknown): Partial<Usage> | undefined {
  if (!isObject(usage)) return undefined;
  const out: MutableUsage = {};
  promptTokens(usage, out);
  const creation = num(usage.cache_creation_input_tokens);
  const read = num(usage.cache_read_input_tokens);
  if (creation !== undefined) out.cacheCreation = creation;
  if (read !== undefined) out.cacheRead = read;
  const output = num(usage.output_tokens) ?? num(usage.completion_tokens);
  if (output !== undefined) out.output = output;
  return Object.keys(out).length === 0 ? undefined : out;
}

function usagesIn(event: unknown): unknown[] {
  if (!isObject(event)) return [];
  const found: unknown[] = [];
  if (isObject(event.usage)) found.push(event.usage);
  if (isObject(event.message) && isObject(event.message.usage)) found.push(event.message.usage);
  if (isObject(event.response) && isObject(event.response.usage)) found.push(event.response.usage);
  return found;
}

/** Non-streaming bodies, and events of a stream, above this are not parsed for usage (they still pass through). */
const MAX_JSON_BODY = 16 * 1024 * 1024;

export class UsageMeter {
  private usage: { -readonly [K in keyof Usage]: number } = { ...ZERO_USAGE };
  private seen = false;
  private readonly events: SseEventScanner | undefined;
  private readonly json: Buffer[] = [];
  private jsonBytes = 0;

  constructor(streaming: boolean) {
    this.events = streaming
      ? new SseEventScanner({
          onData: (data) => this.event(data),
          maxEventBytes: MAX_JSON_BODY,
        })
      : undefined;
  }

  /** Observe one chunk (of the decoded reply) as it passes to the client. */
  push(chunk: Buffer): void {
    if (this.events !== undefined) {
      this.events.push(chunk);
      return;
    }
    this.jsonBytes += chunk.length;
    if (this.jsonBytes <= MAX_JSON_BODY) this.json.push(chunk);
  }

  /** Whether further bytes can no longer change the outcome (a body past the parse limit). */
  get saturated(): boolean {
    return this.events === undefined && this.jsonBytes > MAX_JSON_BODY;
  }

  /** The meter's work so far in bytes: scanned for event ends and decoded, or collected. */
  get workBytes(): number {
    return this.events?.examinedBytes ?? Math.min(this.jsonBytes, MAX_JSON_BODY);
  }

  /** The usage seen, once the reply ended; undefined when the reply reported none. */
  finish(): Usage | undefined {
    if (this.events !== undefined) this.events.end();
    else if (this.jsonBytes <= MAX_JSON_BODY) {
      this.parse(Buffer.concat(this.json).toString('utf8'));
    }
    return this.seen ? { ...this.usage } : undefined;
  }

  private event(data: string): void {
    if (data.includes('usage')) this.parse(data);
  }

  private parse(text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    for (const usage of usagesIn(value)) {
      const part = normalizeUsage(usage);
      if (part === undefined) continue;
      this.seen = true;
      // Later events repeat or complete earlier counts: keep the latest value of each field.
      this.usage = { ...this.usage, ...part };
    }
  }
}
