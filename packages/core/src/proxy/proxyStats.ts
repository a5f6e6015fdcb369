/**
 * What the proxy reports: one record per request (route, conversation, billed usage, what density
 * removed, whether the cached prefix stayed byte-identical), the live stderr line, the
 * `GET /dense/stats` JSON and the summary table printed at exit.
 */
import type { ScheduleReason } from './proxySchedule.js';
import type { Usage } from './usageMeter.js';

export interface ProxyRequestRecord {
  readonly at: number;
  readonly route: string;
  readonly status: number;
  readonly conversationId: string | undefined;
  readonly durationMs: number;
  readonly usage: Usage | undefined;
  /** Request characters density removed (0 when forwarded unchanged). */
  readonly removedChars: number;
  readonly pointers: number;
  readonly newEdits: number;
  readonly schedule: ScheduleReason;
  readonly prefixStable: boolean | undefined;
  readonly unsupported?: string;
}

export interface ProxyTotals {
  readonly requests: number;
  readonly inputTokens: number;
  readonly cacheCreationTokens: number;
  readonly cacheReadTokens: number;
  readonly outputTokens: number;
  /** Estimated tokens density kept out of the requests (removed characters / 4). */
  readonly removedTokens: number;
  readonly batches: number;
  readonly prefixBreaks: number;
}

export interface ProxyStatsJson {
  readonly totals: ProxyTotals;
  readonly conversations: Readonly<Record<string, ProxyTotals>>;
  readonly recent: readonly ProxyRequestRecord[];
}

const RECENT = 100;

function addTo(totals: ProxyTotals, record: ProxyRequestRecord): ProxyTotals {
  const usage = record.usage;
  return {
    requests: totals.requests + 1,
    inputTokens: totals.inputTokens + (usage?.input ?? 0),
    cacheCreationTokens: totals.cacheCreationTokens + (usage?.cacheCreation ?? 0),
    cacheReadTokens: totals.cacheReadTokens + (usage?.cacheRead ?? 0),
    outputTokens: totals.outputTokens + (usage?.output ?? 0),
    removedTokens: totals.removedTokens + Math.round(record.removedChars / 4),
    batches: totals.batches + (record.newEdits > 0 ? 1 : 0),
    prefixBreaks: totals.prefixBreaks + (record.prefixStable === false ? 1 : 0),
  };
}

const ZERO: ProxyTotals = {
  requests: 0,
  inputTokens: 0,
  cacheCreationTokens: 0,
  cacheReadTokens: 0,
  outputTokens: 0,
  removedTokens: 0,
  batches: 0,
  prefixBreaks: 0,
};

export class ProxyStats {
  private totals: ProxyTotals = ZERO;
  private readonly perConversation = new Map<string, ProxyTotals>();
  private readonly recent: ProxyRequestRecord[] = [];

  record(record: ProxyRequestRecord): void {
    this.totals = addTo(this.totals, record);
    const key = record.conversationId ?? '(none)';
    this.perConversation.set(key, addTo(this.perConversation.get(key) ?? ZERO, record));
    this.recent.push(record);
    if (this.recent.length > RECENT) this.recent.shift();
  }

  toJSON(): ProxyStatsJson {
    return {
      totals: this.totals,
      conversations: Object.fromEntries(this.perConversation),
      recent: [...this.recent],
    };
  }
}

const k = (value: number): string =>
  value >= 10_000 ? `${(value / 1000).toFixed(0)}k` : String(value);

/** One line per request for stderr; colour only when `color`. */
export function formatRequestLine(record: ProxyRequestRecord, color: boolean): string {
  const paint = (code: number, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const usage = record.usage;
  const billed = usage
    ? `in ${k(usage.input)} · cache w ${k(usage.cacheCreation)} r ${k(usage.cacheRead)} · out ${k(usage.output)}`
    : 'no usage';
  const density =
    record.unsupported !== undefined
      ? paint(33, 'unchanged')
      : record.pointers > 0
        ? paint(
            32,
            `−${k(Math.round(record.removedChars / 4))} tok (${record.pointers} ptr, +${record.newEdits} ${record.schedule})`,
          )
        : `no edit${record.schedule === 'wait' ? ' (waiting for cold cache)' : ''}`;
  const prefix = record.prefixStable === false ? paint(31, ' prefix changed') : '';
  const status = record.status >= 400 ? paint(31, String(record.status)) : String(record.status);
  return `dense proxy ${status} ${record.route} ${record.durationMs}ms · ${billed} · ${density}${prefix}`;
}

/** The table printed when the proxy stops. */
export function formatSummary(stats: ProxyStatsJson): string {
  const rows: [string, string][] = [
    ['requests', String(stats.totals.requests)],
    ['conversations', String(Object.keys(stats.conversations).length)],
    ['input tokens (uncached)', String(stats.totals.inputTokens)],
    ['cache write tokens', String(stats.totals.cacheCreationTokens)],
    ['cache read tokens', String(stats.totals.cacheReadTokens)],
    ['output tokens', String(stats.totals.outputTokens)],
    ['tokens removed by density (est.)', String(stats.totals.removedTokens)],
    ['edit batches sent', String(stats.totals.batches)],
    ['requests whose cached prefix changed', String(stats.totals.prefixBreaks)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  return ['dense proxy summary', ...rows.map(([l, v]) => `  ${l.padEnd(width)}  ${v}`)].join('\n');
}
