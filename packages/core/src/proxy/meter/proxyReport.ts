/**
 * The proxy's words for people: one stderr line per request and the summary table printed at
 * exit, both from `ProxyStats` records. Costs are prompt costs in base-input-token units.
 */
import type { ProxyStatsJson } from './proxyStats.js';
import type { ProxyRequestRecord } from './proxyRecord.js';
import type { ProxyTotals } from './proxyTotals.js';
import { POINTERS_DROPPED_TEXT, type PassThroughPointers } from '../decide/sentPointers.js';

const k = (value: number): string =>
  value >= 10_000 ? `${(value / 1000).toFixed(0)}k` : String(Math.round(value));

const END_TEXT = {
  complete: '',
  'upstream-cut': ' cut mid-reply (upstream dropped the connection)',
  'client-closed': ' cut mid-reply (client closed the connection)',
} as const;

/** One line per request for stderr; colour only when `color`. */
export function formatRequestLine(record: ProxyRequestRecord, color: boolean): string {
  const paint = (code: number, text: string) => (color ? `\u001b[${code}m${text}\u001b[0m` : text);
  const usage = record.usage;
  const billed = usage
    ? `in ${k(usage.input)} · cache w ${k(usage.cacheCreation)} r ${k(usage.cacheRead)} · out ${k(usage.output)}`
    : 'no usage';
  const density =
    record.unsupported !== undefined
      ? paint(33, passThroughText(record.passThrough))
      : record.pointers > 0 || (record.replies ?? 0) > 0
        ? paint(
            32,
            `−${k(Math.round(record.removedChars / 4))} tok (${record.pointers} ptr${record.replies ? `, ${record.replies} reply` : ''}, +${record.newEdits} ${record.schedule})`,
          )
        : `no edit${record.schedule === 'deferred' ? ' (waiting for a cheap moment)' : ''}`;
  const prefix = record.prefixStable === false ? paint(31, ' prefix changed') : '';
  const compaction = compactionText(record);
  const cost = record.cost;
  const costText =
    cost === undefined || cost.billed === cost.passThrough
      ? ''
      : ` · cost ${k(cost.billed)} vs ${k(cost.passThrough)} pass-through`;
  const costly = cost !== undefined && cost.billed > cost.passThrough;
  const context = contextText(record);
  const failed = record.status >= 400 || record.end !== 'complete';
  const statusText = `${record.status}${END_TEXT[record.end]}`;
  const status = failed ? paint(31, statusText) : statusText;
  return `dense proxy ${status} ${record.route} ${record.durationMs}ms · ${billed} · ${density}${compaction}${prefix}${costly ? paint(31, costText) : costText}${context}`;
}

/** Context upstream vs what the client holds, when they differ; a compaction avoided. */
function contextText(record: ProxyRequestRecord): string {
  const context = record.context;
  const sizes =
    context === undefined || context.upstreamTokens === context.clientTokens
      ? ''
      : ` · context ${k(context.upstreamTokens)} upstream vs ${k(context.clientTokens)} client`;
  const avoided =
    record.compactionAvoided === 'kept-under'
      ? ' · client kept under its compaction threshold'
      : '';
  return sizes + avoided;
}

/** "12 (3 answered, 9 kept under)" */
function avoidedText(totals: ProxyTotals): string {
  return `${totals.compactionsAvoided} (${totals.compactionsAnswered} answered, ${totals.compactionsKeptUnder} kept under)`;
}

/** What the working budget did on this request, if anything. */
function compactionText(record: ProxyRequestRecord): string {
  const note = record.compaction;
  if (note === undefined) return '';
  switch (note.kind) {
    case 'kept':
      return ` · ${note.cut} msgs compacted (sticky)`;
    case 'compacted':
      return ` · compacted ${note.cut} msgs to the working budget`;
    case 'answered':
      return ` · client compaction answered by Dense (${note.cut} msgs, not forwarded)`;
    default: {
      const unknown: never = note.kind;
      return unknown;
    }
  }
}

/**
 * A request forwarded without being read: `unchanged`, or whether the pointers already sent went
 * out again — when they did not, the provider's cached prefix broke, and the line says why.
 */
function passThroughText(outcome: PassThroughPointers | undefined): string {
  if (outcome === undefined || outcome.kind === 'none') return 'unchanged';
  if (outcome.kind === 'kept') return `unchanged, ${outcome.pointers} ptr kept`;
  return `unchanged, cache broke: ${POINTERS_DROPPED_TEXT[outcome.reason]} (${outcome.kept} ptr kept)`;
}

/** "saved 12% (1.2k)" or "density cost 3% more (+400)" or "no difference". */
export function formatSaving(totals: Pick<ProxyTotals, 'billedCost' | 'passThroughCost'>): string {
  const { billedCost: billed, passThroughCost: passThrough } = totals;
  const difference = passThrough - billed;
  if (Math.abs(difference) < 0.5) return 'no difference';
  const percent =
    passThrough > 0 ? ` ${((Math.abs(difference) / passThrough) * 100).toFixed(1)}%` : '';
  return difference > 0
    ? `saved${percent} (${k(difference)})`
    : `density cost money:${percent} more (+${k(-difference)})`;
}

const SHOWN_CONVERSATIONS = 10;

function conversationRows(stats: ProxyStatsJson): string[] {
  const entries = Object.entries(stats.conversations)
    .filter(([, totals]) => totals.billedCost > 0 || totals.compactionsAnswered > 0)
    .sort(([, a], [, b]) => b.billedCost - a.billedCost);
  const rows = entries
    .slice(0, SHOWN_CONVERSATIONS)
    .map(
      ([id, totals]) =>
        `  ${id}: ${totals.requests} requests, billed ${k(totals.billedCost)} vs ${k(totals.passThroughCost)} pass-through, ${formatSaving(totals)}; context ${k(totals.contextUpstreamTokens)} upstream vs ${k(totals.contextClientTokens)} client; compactions avoided ${avoidedText(totals)}`,
    );
  if (entries.length > SHOWN_CONVERSATIONS) {
    rows.push(`  … ${entries.length - SHOWN_CONVERSATIONS} more in GET /dense/stats`);
  }
  const costly = entries.filter(([, totals]) => totals.billedCost > totals.passThroughCost + 0.5);
  if (costly.length > 0) {
    rows.push(`  density cost money in ${costly.length} of ${entries.length} conversations`);
  }
  return rows;
}

/** The table printed when the proxy stops. */
export function formatSummary(stats: ProxyStatsJson): string {
  const { totals } = stats;
  const rows: [string, string][] = [
    ['requests', String(totals.requests)],
    [
      'conversations',
      String(Object.keys(stats.conversations).length + stats.dropped.conversations),
    ],
    ['input tokens (uncached)', String(totals.inputTokens)],
    ['cache write tokens', String(totals.cacheCreationTokens)],
    ['cache read tokens', String(totals.cacheReadTokens)],
    ['output tokens', String(totals.outputTokens)],
    ['prompt cost billed (input-token units)', k(totals.billedCost)],
    ['prompt cost passed through (est.)', k(totals.passThroughCost)],
    ['density', formatSaving(totals)],
    [
      'context upstream vs client (latest, summed)',
      `${k(totals.contextUpstreamTokens)} vs ${k(totals.contextClientTokens)}`,
    ],
    ['client compactions avoided', avoidedText(totals)],
    ['edit batches sent', String(totals.batches)],
    ['requests whose cached prefix changed', String(totals.prefixBreaks)],
    ['replies cut mid-way', String(totals.cutReplies)],
  ];
  const width = Math.max(...rows.map(([label]) => label.length));
  const table = rows.map(([l, v]) => `  ${l.padEnd(width)}  ${v}`);
  const perConversation = conversationRows(stats);
  return [
    'dense proxy summary',
    ...table,
    ...(perConversation.length > 0 ? ['per conversation (prompt cost):', ...perConversation] : []),
  ].join('\n');
}
