/**
 * What the status line says of one Claude Code session, read from the proxy's `GET /dense/stats`
 * JSON: its conversations are keyed `session:<session header>:<hash>` (a session's side requests
 * have their own hash). The context is the most recently active metered conversation's; the
 * saving and the compactions avoided are summed over all of the session's conversations. The JSON
 * is read defensively: anything not shaped like the proxy's stats reads as unknown.
 */

export interface SessionStatus {
  /** Prompt tokens of the latest metered request as forwarded; undefined before any. */
  readonly context: { readonly upstreamTokens: number; readonly clientTokens: number } | undefined;
  /** Billed prompt cost and the same requests passed through, summed (base-input-token units). */
  readonly billedCost: number;
  readonly passThroughCost: number;
  readonly compactionsAvoided: number;
}

interface Conversation {
  readonly key: string;
  readonly contextUpstreamTokens: number;
  readonly contextClientTokens: number;
  readonly billedCost: number;
  readonly passThroughCost: number;
  readonly compactionsAvoided: number;
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;

function conversationOf(key: string, totals: unknown): Conversation | undefined {
  if (!isRecord(totals)) return undefined;
  return {
    key,
    contextUpstreamTokens: count(totals.contextUpstreamTokens),
    contextClientTokens: count(totals.contextClientTokens),
    billedCost: count(totals.billedCost),
    passThroughCost: count(totals.passThroughCost),
    compactionsAvoided: count(totals.compactionsAvoided),
  };
}

/** The time of each conversation's latest request among the stats' recent records. */
function lastActive(recent: unknown): Map<string, number> {
  const at = new Map<string, number>();
  for (const record of Array.isArray(recent) ? (recent as unknown[]) : []) {
    if (!isRecord(record) || typeof record.conversationId !== 'string') continue;
    at.set(record.conversationId, Math.max(at.get(record.conversationId) ?? 0, count(record.at)));
  }
  return at;
}

/**
 * The session's conversations, least recently active first: by their latest recent record, then
 * by the stats' own order (the proxy lists conversations least recently active first).
 */
function sessionConversations(stats: Readonly<Record<string, unknown>>, sessionId: string) {
  const prefix = `session:${sessionId}:`;
  const conversations = isRecord(stats.conversations) ? stats.conversations : {};
  const at = lastActive(stats.recent);
  const own = Object.entries(conversations)
    .filter(([key]) => key.startsWith(prefix))
    .map(([key, totals], order) => ({ conversation: conversationOf(key, totals), order }))
    .filter(
      (entry): entry is { conversation: Conversation; order: number } =>
        entry.conversation !== undefined,
    );
  own.sort(
    (a, b) =>
      (at.get(a.conversation.key) ?? 0) - (at.get(b.conversation.key) ?? 0) || a.order - b.order,
  );
  return own.map((entry) => entry.conversation);
}

/** The session's status, or undefined when the stats know no conversation of `sessionId`. */
export function sessionStatus(stats: unknown, sessionId: string): SessionStatus | undefined {
  if (!isRecord(stats) || sessionId === '') return undefined;
  const own = sessionConversations(stats, sessionId);
  if (own.length === 0) return undefined;
  const latest = own.filter((c) => c.contextClientTokens > 0 || c.contextUpstreamTokens > 0).pop();
  const sum = (field: 'billedCost' | 'passThroughCost' | 'compactionsAvoided') =>
    own.reduce((total, c) => total + c[field], 0);
  return {
    context:
      latest === undefined
        ? undefined
        : {
            upstreamTokens: latest.contextUpstreamTokens,
            clientTokens: latest.contextClientTokens,
          },
    billedCost: sum('billedCost'),
    passThroughCost: sum('passThroughCost'),
    compactionsAvoided: sum('compactionsAvoided'),
  };
}
