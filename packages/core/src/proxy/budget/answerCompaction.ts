/**
 * The client's own compaction request, recognized and answered at once with Dense's
 * deterministic summary instead of a model call, on every wire API: which request it is and
 * how the client wants the summary are data (`clientCompactionRequests.ts`), the reply's shape is
 * the wire's (`compactionReplyBody.ts`).
 */
import { isUtf8 } from 'node:buffer';
import type { IContent } from '../../services/history/IContent.js';
import type { RecallEntry } from '../../recall/RecallArchive.js';
import { regionPieces } from '../../recall/regionPieces.js';
import { readAnthropicRequest } from '../wire/anthropicHistory.js';
import { parseJsonSpans, stringMember, member, type JsonNode } from '../wire/jsonSpans.js';
import { readOpenAIRequest } from '../wire/openaiHistory.js';
import type { WireApi, WireHistory } from '../wire/wireHistory.js';
import {
  CLIENT_COMPACTIONS,
  COMPACTION_MARKER,
  type ClientCompaction,
} from './clientCompactionRequests.js';
import { compactionReplyBody } from './compactionReplyBody.js';
import { compactionSummary } from './compactionSummary.js';

/** The summary may take this many characters (Claude Code's own run 9–17k). */
const SUMMARY_CHARS = 24_000;

export interface CompactionReply {
  /** The conversation's identity, as the request reader gives it. */
  readonly identity: string;
  readonly stream: boolean;
  readonly contentType: string;
  readonly body: string;
  /** Messages the summary covers. */
  readonly messages: number;
  /** Bytes of those messages in the request, and of the summary text that stands for them. */
  readonly coveredBytes: number;
  readonly summaryBytes: number;
  /** The originals the summary names, to keep before the reply goes out. */
  readonly recalls: readonly RecallEntry[];
}

function readWire(api: WireApi, text: string, root: JsonNode): WireHistory | undefined {
  const read =
    api === 'anthropic' ? readAnthropicRequest(text, root) : readOpenAIRequest(text, root, api);
  return read.kind === 'history' ? read.wire : undefined;
}

/** The covered messages, without the instruction, and their raw text. */
function covered(
  client: ClientCompaction,
  input: { text: string; root: JsonNode; wire: WireHistory },
): { removed: IContent[]; history: IContent[]; raw: string; pieces: string[] } {
  const { history: all, messageSpans: spans } = input.wire;
  const first = Math.min(client.firstCovered(input.root), Math.max(0, all.length - 1));
  if (client.instruction === 'last-message') {
    const history = all.slice(0, -1);
    const raw = input.text.slice(spans[first]?.start ?? 0, spans.at(-2)?.end ?? 0);
    const pieces = regionPieces(input.text, spans, first, spans.length - 1);
    return { removed: history.slice(first), history, raw, pieces };
  }
  const history = all
    .map((entry, index) =>
      index < all.length - 1
        ? entry
        : {
            ...entry,
            blocks: entry.blocks.filter(
              (block) => block.type !== 'text' || !block.text.startsWith(COMPACTION_MARKER),
            ),
          },
    )
    .filter((entry) => entry.blocks.length > 0);
  const raw = input.text.slice(spans[first]?.start ?? 0, spans.at(-1)?.end ?? 0);
  const pieces = regionPieces(input.text, spans, first, spans.length);
  return { removed: history.slice(first), history, raw, pieces };
}

function note(messages: number): string {
  return `Dense answered this compaction request itself, without a model call: the ${messages} messages are summarized deterministically below; \`dense recall <id>\` with any recall id gives the exact original (\`--grep PATTERN\` or \`--lines A:B\` to read part of a long one).`;
}

/**
 * Dense's reply to the client's compaction request on `api`, or undefined when `body` is not
 * one (or cannot be read: it is then forwarded as any other request). Never throws.
 */
export function answerCompaction(api: WireApi, body: Buffer): CompactionReply | undefined {
  const client = CLIENT_COMPACTIONS[api];
  // Most requests are not one: a byte search spares them a second parse.
  if (!body.includes(client.marker) || !isUtf8(body)) return undefined;
  const text = body.toString('utf8');
  try {
    const root = parseJsonSpans(text);
    if (!client.isRequest(root)) return undefined;
    const wire = readWire(api, text, root);
    if (wire === undefined) return undefined;
    const { removed, history, raw, pieces } = covered(client, { text, root, wire });
    const summary = compactionSummary({
      removed,
      history,
      removedRaw: raw,
      removedPieces: pieces,
      budgetChars: SUMMARY_CHARS,
      purpose: 'client-compaction',
    });
    const stream = member(root, 'stream');
    const streamed = stream !== undefined && text.slice(stream.start, stream.end) === 'true';
    const reply = {
      model: stringMember(root, 'model') ?? 'dense',
      id: `dense_compaction_${removed.length}`,
      text: client.replyText(note(removed.length), summary.text),
    };
    return {
      identity: wire.identity,
      stream: streamed,
      ...compactionReplyBody(api, reply, streamed),
      messages: removed.length,
      coveredBytes: Buffer.byteLength(raw),
      summaryBytes: Buffer.byteLength(reply.text),
      recalls: summary.recall,
    };
  } catch {
    return undefined;
  }
}
